"""Server-rendered pages of the games app, one module per subject."""
