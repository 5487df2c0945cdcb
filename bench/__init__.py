"""Benchmarks: ``python -m bench SCENARIO [--json] [--quick]``; never part of the test suite."""
