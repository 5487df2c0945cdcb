"""Event money in pure Python (no Django)."""
