# -*- Python -*-
# Runs the GoogleTest unit tests (build/unittests/HKUnitTests) under lit.

import lit.formats

config.name = "HK-Unit"
config.suffixes = []
config.test_source_root = config.unit_test_dir
config.test_exec_root = config.unit_test_dir
config.test_format = lit.formats.GoogleTest(".", "Tests")
