"""Write use cases of the games app: one keyword-only function each, one transaction."""
