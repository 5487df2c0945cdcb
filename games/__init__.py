"""Players, clubs, matches and games, ratings: the rules of match play and their records."""
