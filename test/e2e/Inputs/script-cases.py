"""Cases for hk-run-script.test: the kernel @scale of script-kernel.mlir,
y = s * x, described every way the script workload reads (and misreads)."""

import numpy as np


def _case(shape, rng, **changes):
    m, n = shape
    x = rng.uniform(-1.0, 1.0, (m, n))

    def reference(x):
        return {"y": (2.5 * x, 2.0**-24 * np.abs(2.5 * x), "one f32 rounding")}

    case = {"inputs": {"x": x}, "outputs": {"y": (m, n)},
            "scalars": {"s": 2.5}, "reference": reference,
            "description": f"M={m} N={n}"}
    case.update(changes)
    return case


def scale(shape, params, rng):
    return _case(shape, rng)


def strided(shape, params, rng):
    # x is every other row of a 2M x N array.
    m, n = shape
    base = rng.uniform(-1.0, 1.0, (2 * m, n))

    def reference(base):
        y = 2.5 * base[::2]
        return {"y": (y, 2.0**-24 * np.abs(y), "one f32 rounding")}

    return {"inputs": {"base": base},
            "views": {"x": ("base", (m, n), (2 * n, 1))},
            "outputs": {"y": (m, n)}, "scalars": {"s": 2.5},
            "reference": reference, "grid": (-(-m // 16), -(-n // 64)),
            "description": f"every other row, M={m} N={n}"}


def wrong(shape, params, rng):
    case = _case(shape, rng)
    inner = case["reference"]
    case["reference"] = lambda x: {"y": (inner(x)["y"][0] * 2, 0.0, "none")}
    return case


def small_grid(shape, params, rng):
    return _case(shape, rng, grid=(1, 1))


def no_scalar(shape, params, rng):
    case = _case(shape, rng)
    del case["scalars"]
    return case


def unknown_key(shape, params, rng):
    return _case(shape, rng, bias=1)


def stray_output(shape, params, rng):
    return _case(shape, rng, outputs={"y": shape, "z": shape})


def outside(shape, params, rng):
    m, n = shape
    return _case(shape, rng, inputs={"base": np.zeros((m, n))},
                 views={"x": ("base", (m, n), (n + 1, 1))},
                 reference=lambda base: {"y": (base, 0.0, "none")})


def bad_shape(shape, params, rng):
    case = _case(shape, rng)
    case["reference"] = lambda x: {"y": (x[:1], 0.0, "none")}
    return case


def not_integer(shape, params, rng):
    return _case(shape, rng, scalars={"s": 2.5, "n": 0.5})


def crash(shape, params, rng):
    raise SystemExit("this case cannot be built")
