"""Memory-path figures, as the emulator counts them and the code objects
hold them. Prints figures; it is not a test. Run by scripts/bench-memory.sh.

1. LDS bank-conflict cycles of every GEMM (M=N=K=256, both chips) with
   hk-lds-layout's swizzles and without (--lds-swizzle=false).
2. The pipelined GEMM's main loop (the loop with the most MFMAs, read with
   hk-report): its s_waitcnt that drain vmcnt to zero with exact waits and
   with exact-waits=false, and its instruction mix.
3. Direct-to-LDS against register-staged group loads on gfx942: emulated
   wave-instructions of the pipelined GEMM (M=N=K=1024) with --direct=never
   (every group load staged through registers) and auto (its asynchronous
   prefetches direct), and the timing model's prediction of each on MI300X.
"""

import json
import os
import subprocess
import sys
import tempfile

BIN = os.path.join(sys.argv[1] if len(sys.argv) > 1 else "build", "bin")
SHAPE = "--shapes=256x256x256"


def run(*args, stdin=None):
    return subprocess.run([os.path.join(BIN, args[0]), *args[1:]], input=stdin,
                          capture_output=True, check=True).stdout


def hk_run(example, *flags, shape=SHAPE):
    return json.loads(run("hk-run", f"examples/gemm/{example}", shape,
                          "--json", *flags))


def conflicts(example, kernel, *flags):
    cases = hk_run(example, f"--kernel={kernel}", *flags)
    return ", ".join(
        f"{c['chip']} {c['counters']['lds_bank_conflict_cycles']}"
        for c in cases)


def main_loop(chip, exact):
    lowered = run("hk-opt",
                  f"--hk-pipeline=chip={chip} exact-waits={exact}",
                  "examples/gemm/gemm_abt_pipelined.mlir")
    with tempfile.TemporaryDirectory() as tmp:
        hsaco = os.path.join(tmp, "gemm.hsaco")
        run("hk-translate", "-o", hsaco, stdin=lowered)
        kernel = json.loads(run("hk-report", "--json", hsaco))[0]["kernels"][0]
    loop = max(kernel["loops"], key=lambda l: l["counts"]["mfma"])
    c = loop["counts"]
    waits = ", ".join(f"vmcnt({n}) x{k}"
                      for n, k in sorted(loop["waitcnt_vmcnt"].items()))
    return (f"vmcnt(0) drains {c['s_waitcnt_vmcnt0']} [{waits or 'no vmcnt'}]; "
            f"mfma {c['mfma']}, ds_read {c['ds_read']}, "
            f"ds_write {c['ds_write']}, buffer_load {c['buffer_load']}, "
            f"buffer_load_lds {c['buffer_load_lds']}, "
            f"s_barrier {c['s_barrier']}, valu {c['valu']}, salu {c['salu']}, "
            f"{c['instructions']} instructions")


def main():
    print("LDS bank-conflict cycles, M=N=K=256: swizzled | unswizzled")
    for example, kernel in [("gemm_abt.mlir", "gemm_abt_bf16"),
                            ("gemm_ab.mlir", "gemm_ab_bf16_f32"),
                            ("gemm_abt_pipelined.mlir", "gemm_abt_pipelined"),
                            ("gemm_fp8_gfx942.mlir", "gemm_abt_fp8"),
                            ("gemm_fp8_gfx950.mlir", "gemm_abt_fp8")]:
        print(f"  {example:24} {conflicts(example, kernel):22} | "
              f"{conflicts(example, kernel, '--lds-swizzle=false')}")

    print("gemm_abt_pipelined main loop, one iteration, per wave:")
    for chip in ("gfx942", "gfx950"):
        for exact in ("true", "false"):
            print(f"  {chip} exact-waits={exact:5} {main_loop(chip, exact)}")

    print("gfx942 group loads, gemm_abt_pipelined M=N=K=1024 "
          "(emulator counts; predicted MI300X time):")
    for direct in ("never", "auto"):
        case = hk_run("gemm_abt_pipelined.mlir", "--chip=gfx942",
                      f"--direct={direct}", "--timing",
                      "--no-sanitizers",
                      shape="--shapes=1024x1024x1024")[0]
        counters = case["counters"]
        timing = case["timing"]
        print(f"  direct={direct:6} {counters['wave_instructions']} "
              f"wave-instructions (vmem {counters['mix']['vmem']}, "
              f"valu {counters['mix']['valu']}); predicted "
              f"{timing['cycles']} cycles, {timing['tflops']:.1f} TFLOP/s")

if __name__ == "__main__":
    main()
