"""API tests share the fixtures of tests/conftest.py (alice, bob, make_match...)."""
