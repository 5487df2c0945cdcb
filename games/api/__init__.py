"""REST API of the games app (clubs, players, matches, ratings)."""
