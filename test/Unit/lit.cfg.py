# -*- Python -*-
# Runs the GoogleTest unit tests (build/unittests/HKUnitTests) under lit.

import os
import sys

import lit.formats

sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
import lit_sanitizers

config.name = "HK-Unit"
config.suffixes = []
config.test_source_root = config.unit_test_dir
config.test_exec_root = config.unit_test_dir
config.test_format = lit.formats.GoogleTest(".", "Tests")
lit_sanitizers.configure(config)
