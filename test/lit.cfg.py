# -*- Python -*-
# lit configuration of the HK-MLIR test suite: FileCheck tests of the tools,
# the GoogleTest unit tests and the end-to-end emulator runs.

import os
import shutil
import sys

import lit.formats
from lit.llvm import llvm_config

sys.path.insert(0, os.path.dirname(__file__))
import lit_sanitizers

config.name = "HK"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.hk_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "lit_sanitizers.py"]

llvm_config.with_system_environment(["HOME", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
lit_sanitizers.configure(config, config.llvm_tools_dir)

config.substitutions.append(("%hk_src_root", config.hk_src_root))
config.substitutions.append(("%hk_obj_root", config.hk_obj_root))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(
    ("%oracles", os.path.join(config.hk_src_root, "third_party", "oracles")))
upstream_oracles = os.path.join(os.path.dirname(config.hk_src_root), "shared",
                                "oracles")
if os.path.isdir(upstream_oracles):
    config.available_features.add("upstream-oracles")
    config.substitutions.append(("%upstream_oracles", upstream_oracles))

# csmith and its runtime headers (Debian csmith, libcsmith-dev).
if shutil.which("csmith") and os.path.exists(
        "/usr/include/csmith/safe_math.h"):
    config.available_features.add("csmith")

tool_dirs = [config.hk_tools_dir, config.llvm_tools_dir]
hk_tools = [name for name in ["hk-opt", "hk-translate", "hk-report", "hk-emu",
                              "hk-run"]
            if os.path.exists(os.path.join(config.hk_tools_dir, name))]
config.available_features.update(hk_tools)
llvm_config.add_tool_substitutions(
    hk_tools + ["mlir-opt", "llvm-readelf", "llvm-objdump", "llvm-mc", "clang",
                "not", "count", "split-file"],
    tool_dirs)

# HIP-style C++ compiled at test time for one chip (add --offload-arch=gfxNNN):
# device code only, with test/Emulator/Inputs/hip_shim.h instead of HIP's
# headers.
config.substitutions.append(
    ("%hip_device_cc",
     os.path.join(config.llvm_tools_dir, "clang++") +
     " -x hip --cuda-device-only --no-gpu-bundle-output -nogpulib -nogpuinc"
     " -O3 -I " +
     os.path.join(config.hk_src_root, "test", "Emulator", "Inputs")))

# HIP's headers (Debian's libamdhip64-dev): generated headers and host
# programs are compiled against them.
if os.path.exists("/usr/include/hip/hip_runtime_api.h"):
    config.available_features.add("hip-headers")
config.substitutions.append(
    ("%host_cxx",
     os.path.join(config.llvm_tools_dir, "clang++") +
     " -std=c++17 -Wall -Wextra -Werror -D__HIP_PLATFORM_AMD__"))
config.substitutions.append(
    ("%host_cc",
     os.path.join(config.llvm_tools_dir, "clang") +
     " -std=c11 -pedantic -Wall -Wextra -Werror -D__HIP_PLATFORM_AMD__"))

# libhkhip: HIP's runtime API over the emulator. Host programs link it in
# place of HIP's libamdhip64.
hk_hip_dir = os.path.join(config.hk_obj_root, "lib")
if os.path.exists(os.path.join(hk_hip_dir, "libhkhip.so")):
    config.available_features.add("hk-hip")
config.substitutions.append(
    ("%hk_hip_link",
     "-L" + hk_hip_dir + " -lhkhip -Wl,-rpath," + hk_hip_dir +
     lit_sanitizers.shared_runtime_link_flags(config)))
# HIP's own runtime library (Debian's libamdhip64-dev): the same host
# programs link against it too.
if any(os.path.exists(os.path.join(d, "libamdhip64.so"))
       for d in ["/usr/lib/x86_64-linux-gnu", "/usr/lib", "/opt/rocm/lib"]):
    config.available_features.add("hip-runtime")
