"""Tournament use cases: one function per use case, keyword-only, one transaction each."""
