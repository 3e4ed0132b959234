"""Cases and float64 references of the fused residual-add normalizations
(fused_add_norm.mlir)."""

import numpy as np

F32 = 2.0**-24  # unit roundoff of f32
BF16 = 2.0**-8  # unit roundoff of bf16


def _bf16_output(value, f32_err):
    """The bound of a result with f32 error f32_err, rounded once to bf16."""
    return BF16 * (np.abs(value) + f32_err) + f32_err


def add_norm(shape, params, rng):
    if len(shape) != 2:
        raise SystemExit(f"fused add-norm cases are MxN, got {shape}")
    m, n = shape
    rms = params.get("norm", "rms") == "rms"
    eps = float(params.get("eps", "1e-6"))
    # LayerNorm rows get a mean far from zero, so that the centring matters.
    shift = 0.0 if rms else 2.0
    inputs = {"x": rng.uniform(-1.0, 1.0, (m, n)) + shift,
              "res": rng.uniform(-1.0, 1.0, (m, n)),
              "gamma": rng.uniform(-1.0, 1.0, n)}
    if not rms:
        inputs["beta"] = rng.uniform(-1.0, 1.0, n)

    def reference(x, res, gamma, beta=None):
        s = x + res
        # The stored residual: the f32 sum (one rounding), then bf16.
        res_bound = _bf16_output(s, F32 * np.abs(s))
        res_rule = "2^-8 (|s| + e) + e, e = 2^-24 |s| (f32 add, bf16 store)"
        if rms:
            rrms = 1.0 / np.sqrt((s * s).mean(axis=1, keepdims=True) + eps)
            value = s * rrms * gamma
            # f32: N additions of squares (each rounded) and the mean, +eps
            # and rsqrt (2^-23) halved by the square root's sensitivity, the
            # sum s and two products.
            f32_err = F32 * (n + 10) * np.abs(value)
            rule = "2^-8 (|y| + e) + e, e = (N + 10) 2^-24 |y| (bf16 output)"
        else:
            mean = s.mean(axis=1, keepdims=True)
            d = s - mean
            rstd = 1.0 / np.sqrt((d * d).mean(axis=1, keepdims=True) + eps)
            value = d * rstd * gamma + beta
            # f32: the mean errs by (N + 1) 2^-24 (|mean| + max |s|), which
            # s - mean passes on; the variance and rstd as for RMSNorm;
            # then the products and the add of beta.
            amax = np.abs(s).max(axis=1, keepdims=True)
            d_err = F32 * ((n + 2) * (np.abs(mean) + amax) + np.abs(d))
            f32_err = (np.abs(gamma) * rstd * (d_err + F32 * (n + 10) * np.abs(d))
                       + F32 * (np.abs(value) + np.abs(beta)))
            rule = ("2^-8 (|y| + e) + e, e = |gamma| rstd ((N + 2)(|mean| + "
                    "max|s|) + (N + 11)|s - mean|) 2^-24 + 2^-24 (|y| + |beta|)"
                    " (bf16 output)")
        return {"y": (value, _bf16_output(value, f32_err), rule),
                "res_out": (s, res_bound, res_rule)}

    return {
        "inputs": inputs,
        "outputs": {"y": (m, n), "res_out": (m, n)},
        "scalars": {"eps": eps},
        "reference": reference,
        "grid": (max(1, -(-m // 64)),),
        "description": f"M={m} N={n}",
    }
