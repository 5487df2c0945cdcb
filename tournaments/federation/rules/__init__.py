"""The bodies' rules as pure code: qualification, ABT points, which matches count, and
the files (CSV, zip) they are sent as. No Django imports (import-linter checks it)."""
