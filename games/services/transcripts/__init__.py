"""Importing ``.mat`` match transcripts into a club's matches.

A transcript is read and replayed by the pure rules (``games.rules.matfile`` and
``games.rules.replay``: every move, cube action, Crawford game and score line), then
its games go through the same match scoring as games entered by hand
(``games.rules.scoring``), so an imported match can never hold a record the score
entry would refuse. One transaction per file: a file is imported whole or not at all.

* A file with any replay error (an illegal move, a score line that the games do not
  reproduce, a wrong ``Wins``...) is **refused** with every error it contains, unless
  ``lenient``: then the games are kept as the rules score them and the errors are
  reported with the import (in the command's output and the import job's result; the
  match itself has no field for them). Scoring refusals (a double in the Crawford game,
  a game after the match ended) refuse the file even when lenient, because such a
  match could not be stored.
* The same file imported twice into a club creates nothing new: ``Match.transcript_hash``
  is the SHA-256 of the normalised text (BOM, line endings and trailing blanks removed)
  and the club's row is locked while a file is checked and written, so two concurrent
  uploads of one file give one match.
* Money transcripts (a ``0 point match``, or a Galaxy coin game, which the site exports
  as an "N point match" of one game with a table limit N) become unlimited sessions:
  length 0, unrated, scored with money rules (the Jacoby rule when the file shows it).
* Players are found by display name (case-insensitive) among the club's members, or
  created in the club.
* A resigned match (BackgammonGalaxy's last ``Wins n point and the match`` with n above
  any game value) is stored as a finished, rated match whose last game has the ending
  ``match_resigned``: the game is worth exactly the points the winner needed, so the stored
  final score is N to the loser's score (e.g. 5-2), whatever n the file wrote (Galaxy
  caps that n inconsistently). The n the file wrote stays in the game's last move entry
  (``declared_points``) and in the stored transcript, which is what the match's
  transcript download returns, so the file round-trips unchanged.

The package holds one job a module: :mod:`.text` (normalise, hash, decode, replay: no
database), :mod:`.imports` (files into matches), :mod:`.export` (a score sheet as a
transcript), :mod:`.attach` (a transcript for an entered match) and :mod:`.access` (who
may). Every name callers use is importable from here.
"""

from __future__ import annotations

from .access import require_may_attach
from .attach import TranscriptDisagrees, attach_transcript
from .export import score_sheet_transcript
from .imports import (
    CHECKED,
    DUPLICATE,
    IMPORTED,
    REFUSED,
    ImportOutcome,
    import_transcript,
    import_transcripts,
    was_refused,
)
from .text import check_transcript, decode_transcript, normalise_transcript, transcript_hash

__all__ = [
    "CHECKED",
    "DUPLICATE",
    "IMPORTED",
    "REFUSED",
    "ImportOutcome",
    "TranscriptDisagrees",
    "attach_transcript",
    "check_transcript",
    "decode_transcript",
    "import_transcript",
    "import_transcripts",
    "normalise_transcript",
    "require_may_attach",
    "score_sheet_transcript",
    "transcript_hash",
    "was_refused",
]
