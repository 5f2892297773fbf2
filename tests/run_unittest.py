"""run_unittest.py — runs the named unittest modules (from the working
directory) for ctest, verbosely, and exits 1 when a test failed, 77 (ctest's
SKIP_RETURN_CODE) when none failed but one was skipped (skipTest: a module
not installed), 0 otherwise — a skipped test is not counted as passed."""
import os
import sys
import unittest

sys.path.insert(0, os.getcwd())
suite = unittest.defaultTestLoader.loadTestsFromNames(sys.argv[1:])
result = unittest.TextTestRunner(verbosity=2).run(suite)
if not result.wasSuccessful():
    sys.exit(1)
if result.skipped:
    print(f"{len(result.skipped)} test(s) skipped", file=sys.stderr)
    sys.exit(77)
sys.exit(0)
