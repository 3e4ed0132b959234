"""Compilation: code objects, signatures, chips and compiler errors."""

import os
import pathlib
import subprocess
import tempfile
import warnings

import numpy as np
import pytest

import hk
from conftest import CHIPS, EXAMPLES


@pytest.mark.parametrize("chip", CHIPS)
def test_module_holds_code_object_and_signatures(example, chip):
    mod = example("gemm/gemm_abt.mlir", chip)
    assert mod.chip == chip
    assert isinstance(mod.hsaco, bytes) and mod.hsaco[:4] == b"\x7fELF"
    assert list(mod.kernels) == ["gemm_abt_bf16", "gemm_abt_f16_f32"]
    kernel = mod.kernels["gemm_abt_bf16"]
    assert kernel.waves == 4 and kernel.block == 256
    assert [p.kind for p in kernel.params] == ["view"] * 3
    assert [p.dtype for p in kernel.params] == ["bf16"] * 3
    assert kernel.params[0].shape == (None, None)
    assert kernel.params[0].rank == 2
    assert kernel.params[0].numpy_dtype == np.uint16
    assert str(kernel) == ("gemm_abt_bf16(!hk.gl<?x?xbf16>, "
                           "!hk.gl<?x?xbf16>, !hk.gl<?x?xbf16>)")
    assert kernel.resources["lds_bytes"] > 0
    assert kernel.resources["vgpr_spills"] == 0
    assert kernel.resources["spills"] is False
    assert mod.compile_seconds > 0


def test_scalar_params_and_static_shapes():
    mod = hk.compile_file(EXAMPLES / "elementwise/scale_add.mlir", "gfx950")
    params = mod.kernels["scale_add"].params
    assert [p.kind for p in params] == ["view", "view", "view", "f32"]
    assert params[3].numpy_dtype is None and str(params[3]) == "f32"


def test_compile_source_text_matches_compile_file():
    path = EXAMPLES / "elementwise/scale_add.mlir"
    # Named as the file, so that the line tables agree too.
    from_text = hk.compile(path.read_text(), "gfx942", name=str(path))
    from_file = hk.compile_file(path, "gfx942")
    assert from_text.hsaco == from_file.hsaco


def test_chips():
    assert hk.chips() == CHIPS
    info = hk.chip_info("gfx950")
    assert info["lds_bytes"] == 160 * 1024 and info["wave_size"] == 64


def test_bad_source_raises_compile_error_with_diagnostic():
    source = "module {\n  hk.kernel @k() waves(4) {\n    hk.bogus\n  }\n}\n"
    with pytest.raises(hk.CompileError) as info:
        hk.compile(source, "gfx950", name="bad.mlir")
    assert "bad.mlir:3:5: error: custom op 'hk.bogus' is unknown" in str(
        info.value)
    assert info.value.diagnostics == str(info.value)


def test_chip_illegal_kernel_raises_compile_error():
    # The gfx950 ping-pong GEMM names its chip.
    with pytest.raises(hk.CompileError,
                       match="module targets gfx950, not gfx942"):
        hk.compile_file(EXAMPLES / "gemm/gemm_pingpong_gfx950.mlir", "gfx942")
    # 160 KiB of LDS fit gfx950, not gfx942's 64 KiB.
    source = ("hk.kernel @k() waves(4) {\n"
              "  %s = hk.alloc : !hk.st<256x256xbf16>\n"
              "  hk.return\n"
              "}\n")
    hk.compile(source, "gfx950")
    with pytest.raises(hk.CompileError,
                       match="needs 131072 bytes of LDS, but gfx942 has "
                       "65536 per workgroup"):
        hk.compile(source, "gfx942")


def test_invalid_op_is_not_a_parse_error():
    source = ("hk.kernel @k(%x: !hk.gl<?x?xf32>) waves(1) {\n"
              "  %d = hk.dim %x[2] : !hk.gl<?x?xf32>\n"
              "  hk.return\n"
              "}\n")
    with pytest.raises(hk.CompileError) as info:
        hk.compile(source, "gfx950", name="dim.mlir")
    message = str(info.value)
    assert message.startswith("invalid dim.mlir:")
    assert "dim.mlir:2:8: error: 'hk.dim' op dimension 2 is out of range" \
        in message
    assert "parse" not in message


@pytest.mark.parametrize("bad", ["gfx90a", "", "GFX950"])
def test_unknown_chip_raises_value_error(bad):
    with pytest.raises(ValueError, match="known chips: gfx942, gfx950"):
        hk.compile("module {}", bad)
    with pytest.raises(ValueError, match="known chips"):
        hk.Device(bad)


def test_bad_options():
    with pytest.raises(ValueError, match="compile option direct must be one "
                                         "of auto, always, never, got "
                                         "'sometimes'"):
        hk.compile("module {}", "gfx942", direct="sometimes")
    with pytest.raises(TypeError, match="unknown compile option 'directs'"):
        hk.compile("module {}", "gfx942", directs="auto")
    with pytest.raises(TypeError, match="exact_waits takes a bool"):
        hk.compile("module {}", "gfx942", exact_waits="no")
    with pytest.raises(ValueError, match="grid_chunk must be at least 0"):
        hk.compile("module {}", "gfx942", grid_chunk=-1)
    # -1 leaves an interleave group size to the cost function; less is an
    # error.
    with pytest.raises(ValueError, match="vmem_per_group must be at least -1"):
        hk.compile("module {}", "gfx942", vmem_per_group=-2)
    with pytest.raises(TypeError):
        hk.compile(b"module {}", "gfx942")
    with pytest.raises(ValueError, match="compile option setprio must be one "
                                         "of auto, true, false, got 'on'"):
        hk.compile("module {}", "gfx942", setprio="on")


def test_setprio_takes_a_bool_or_auto():
    """setprio=True/False force the ping-pong compute clusters' priority
    either way; the default, "auto", leaves it to the cost function, which
    finds nothing for it to win in the GEMM (its memory clusters only read
    LDS)."""
    path = EXAMPLES / "gemm/gemm_pingpong_gfx950.mlir"
    default = hk.compile_file(path, "gfx950")
    assert hk.compile_file(path, "gfx950", setprio="auto").hsaco == \
        default.hsaco
    assert hk.compile_file(path, "gfx950", setprio=False).hsaco == \
        default.hsaco
    assert hk.compile_file(path, "gfx950", setprio=True).hsaco != \
        default.hsaco


def test_unswitch_versions_the_main_loop():
    """The ping-pong GEMM's loop branches on whether its tiles lie inside
    and on its wave group; unswitched (the default) it is another code
    object, with no kernel named as having spilled."""
    path = EXAMPLES / "gemm/gemm_pingpong_gfx950.mlir"
    default = hk.compile_file(path, "gfx950")
    assert default.unswitch_spilled == ()
    single = hk.compile_file(path, "gfx950", unswitch=False)
    assert single.hsaco != default.hsaco
    assert single.unswitch_spilled == ()


def test_unswitch_falls_back_where_the_copies_spill():
    """The attention ping-pong kernels with a ring of three tiles fit
    gfx950's SGPRs as one loop but not unswitched: the module is compiled
    again without unswitching, the kernels named, and nothing spills."""
    source = (EXAMPLES / "attention/attention.mlir").read_text().replace(
        "#hk.pingpong<waves = 8>", "#hk.pingpong<waves = 8, stages = 3>")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mod = hk.compile(source, "gfx950")
    assert mod.unswitch_spilled == ("attention_fwd_pingpong",
                                    "attention_causal_pingpong")
    assert mod.hsaco == hk.compile(source, "gfx950", unswitch=False).hsaco


# Three 64x128 f32 tiles per wave (128 registers each), all live while
# three results are formed: more than the 512 registers a wave has.
SPILLING = """
hk.kernel @spill(%x: !hk.gl<?x?xf32>, %y: !hk.gl<?x?xf32>) waves(1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = hk.load %x[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<64x128xf32, row>
  %b = hk.load %x[%c0, %c1] : !hk.gl<?x?xf32> -> !hk.rt<64x128xf32, row>
  %d = hk.load %x[%c0, %c2] : !hk.gl<?x?xf32> -> !hk.rt<64x128xf32, row>
  %s = hk.add %a, %b : !hk.rt<64x128xf32, row>
  %p = hk.mul %a, %d : !hk.rt<64x128xf32, row>
  %q = hk.mul %b, %d : !hk.rt<64x128xf32, row>
  hk.store %s, %y[%c0, %c0] : !hk.rt<64x128xf32, row> -> !hk.gl<?x?xf32>
  hk.store %p, %y[%c0, %c1] : !hk.rt<64x128xf32, row> -> !hk.gl<?x?xf32>
  hk.store %q, %y[%c0, %c2] : !hk.rt<64x128xf32, row> -> !hk.gl<?x?xf32>
  hk.return
}
"""


def test_spills_warn_by_default_or_fail():
    with pytest.warns(hk.SpillWarning,
                      match=r"kernel 'spill' spills \d+ VGPRs and 0 SGPRs"):
        mod = hk.compile(SPILLING, "gfx950")
    assert mod.kernels["spill"].resources["vgpr_spills"] > 0
    assert mod.kernels["spill"].resources["spills"] is True
    with pytest.raises(hk.CompileError, match="kernel 'spill' spills"):
        hk.compile(SPILLING, "gfx950", spills="error")
    with pytest.raises(ValueError, match="spills must be"):
        hk.compile(SPILLING, "gfx950", spills="maybe")


def test_spills_ignored_and_agprs_counted_once():
    """The metadata's VGPR count already holds the AGPRs: the resources
    split it rather than add the AGPRs again."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mod = hk.compile(SPILLING, "gfx950", spills="ignore")
        # Kernels that do not spill compile without a word.
        hk.compile_file(EXAMPLES / "elementwise/scale_add.mlir", "gfx950")
    r = mod.kernels["spill"].resources
    assert r["agprs"] > 0
    assert r["vgprs"] + r["agprs"] == r["unified_vgprs"] <= 512
    assert r["waves_per_simd"] == 512 // r["unified_vgprs"]


def test_grid_rule():
    mod = hk.compile_file(EXAMPLES / "gemm/gemm_abt.mlir", "gfx942")
    # C (parameter 2): 128 rows per block along x, 128 columns along y.
    assert mod.kernels["gemm_abt_bf16"].grid_rule == (
        ((2, 0, 128),), ((2, 1, 128),), ())


def test_compile_options_are_the_pipelines():
    """Every --hk-pipeline option is a keyword of hk.compile, and reaches
    its pass: the code object is the one hk-run makes with the same
    options (hk-opt's --hk-pipeline, which hk-run's flags share)."""
    options = hk.compile_options()
    assert list(options) == [
        "direct", "exact_waits", "unswitch", "peel_zero_start", "lds_swizzle",
        "grid_chunk", "grid_group",
        "setprio", "mfma_per_group", "ds_reads_per_group", "vmem_per_group"]
    assert options["direct"]["values"] == ["auto", "always", "never"]
    assert options["setprio"]["values"] == ["auto", "true", "false"]
    assert options["setprio"]["default"] == "auto"
    assert options["mfma_per_group"]["default"] == "-1"
    assert options["mfma_per_group"]["kind"] == "int"
    path = EXAMPLES / "gemm/gemm_fp8_gfx950.mlir"
    tuned = hk.compile_file(path, "gfx950", mfma_per_group=2,
                            vmem_per_group=1)
    assert tuned.hsaco != hk.compile_file(path, "gfx950").hsaco
    hk_run = pathlib.Path(hk.__file__).resolve().parents[2] / "bin" / "hk-run"
    # A sanitizer build's test runner preloads the AddressSanitizer runtime
    # into Python; hk-run carries its own and must not inherit it.
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([str(hk_run), str(path), "--chip=gfx950",
                        "--compile-only", f"--save-hsaco={folder}",
                        "--mfma-per-group=2", "--vmem-per-group=1"],
                       check=True, capture_output=True, env=env)
        saved = pathlib.Path(folder) / "gemm_fp8_gfx950.gfx950.hsaco"
        assert saved.read_bytes() == tuned.hsaco
