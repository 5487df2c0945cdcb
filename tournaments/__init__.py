"""Events, entries, stages, rounds and pairings; standings; pairing jobs."""
