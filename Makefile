# HK-MLIR: the two commands of the quick start are `make run` and `make test`.
# Both install what is missing (Debian packages), configure and build first.

BUILD_DIR ?= build
BUILD_TYPE ?= Release
CMAKE_FLAGS ?=

SANITIZE_BUILD_DIR ?= build-sanitize
FUZZ_BUILD_DIR ?= build-fuzz
FUZZ_TARGETS = hk-opt-fuzzer hk-translate-fuzzer code-object-fuzzer \
  hk-emu-args-fuzzer

.PHONY: all setup configure build run test test-sanitize fuzz bench docs \
  format clean

all: build

setup:
	@scripts/setup.sh

$(BUILD_DIR)/build.ninja:
	@scripts/setup.sh
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 $(CMAKE_FLAGS)

configure: $(BUILD_DIR)/build.ninja

build: setup configure
	ninja -C $(BUILD_DIR)

# The main job: compile the bundled examples for gfx942 and gfx950 and show
# what the code objects hold.
run: build
	@scripts/run-main.sh $(BUILD_DIR)

# The whole test suite (lit + FileCheck, GoogleTest, end-to-end emulator runs).
test: build
	@scripts/run-tests.sh $(BUILD_DIR)

# The whole suite again, with every project library and tool built with
# AddressSanitizer and UBSan in $(SANITIZE_BUILD_DIR) (see README for its
# time). Any finding aborts the process and fails its test.
test-sanitize: setup
	$(MAKE) --no-print-directory BUILD_DIR=$(SANITIZE_BUILD_DIR) \
	  CMAKE_FLAGS="-DHK_ENABLE_SANITIZERS=ON $(CMAKE_FLAGS)" configure
	ninja -C $(SANITIZE_BUILD_DIR)
	@scripts/run-tests.sh $(SANITIZE_BUILD_DIR)

# The libFuzzer targets (fuzz/README.md) in $(FUZZ_BUILD_DIR); run one with
# scripts/fuzz.sh TARGET SECONDS.
fuzz: setup
	$(MAKE) --no-print-directory BUILD_DIR=$(FUZZ_BUILD_DIR) \
	  CMAKE_FLAGS="-DHK_BUILD_FUZZERS=ON $(CMAKE_FLAGS)" configure
	ninja -C $(FUZZ_BUILD_DIR) $(FUZZ_TARGETS)

# Benchmarks print figures (compile time, emulator speed); they are not
# timed tests.
bench: build
	@for script in scripts/bench-*.sh; do [ -x "$$script" ] && "$$script" $(BUILD_DIR); done; true

# Regenerates the dialect and pass references under docs/generated (a test
# fails when they fall behind the TableGen sources).
docs: configure
	ninja -C $(BUILD_DIR) mlir-doc
	cp $(BUILD_DIR)/docs/Dialects/HKDialect.md $(BUILD_DIR)/docs/HKPasses.md \
	  $(BUILD_DIR)/docs/HKConversionPasses.md docs/generated/

format:
	@git ls-files '*.cpp' '*.h' | xargs clang-format-22 -i

clean:
	rm -rf $(BUILD_DIR) $(SANITIZE_BUILD_DIR) $(FUZZ_BUILD_DIR)
