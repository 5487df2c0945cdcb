"""The kind of the analysis app's long job (``core.jobs``), named in one place."""

ANALYSE_MATCH = "analysis.match"
"""GNU Backgammon's analysis of one match's transcript."""
