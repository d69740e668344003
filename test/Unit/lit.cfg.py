# -*- Python -*-
# Runs the GoogleTest executables built under build/unittests (as upstream
# MLIR's test/Unit does): every *Tests binary found there is a set of tests.
import os

import lit.formats

config.name = "HK-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.hk_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
