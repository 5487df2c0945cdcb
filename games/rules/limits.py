"""Every bound the API accepts, in one place: serializers and model fields both read it.

A number or a text that reaches the database beyond its column is a server error
(PostgreSQL refuses it mid-transaction); a value far beyond any real use is an
attack. Each limit here is the column's limit or a stated rule below it, so the
serializer refuses it first with a 400 naming the field, and the OpenAPI schema
(min/max on each field) tells clients and the fuzzer the same bound.

Pure Python: the rule modules may import it too.
"""

from __future__ import annotations

MAX_INT32 = 2**31 - 1
"""PostgreSQL ``integer`` (Django's ``IntegerField``/``PositiveIntegerField``)."""
MAX_INT16 = 2**15 - 1
"""PostgreSQL ``smallint`` (``PositiveSmallIntegerField``)."""
MAX_ID = 2**63 - 1
"""Primary keys are ``bigint`` (``DEFAULT_AUTO_FIELD`` is ``BigAutoField``)."""

MAX_CUBE = 2**20
"""The highest cube value anyone may record, limit or no limit (1,048,576).

An unlimited money session may legitimately reach a large cube, but never 2**21: this
keeps every derived figure (points = cube x level x stake, summed over a chouette's
members) well inside the 32-bit columns that hold them."""
MAX_MATCH_LENGTH = 99
"""A match is 1 to 99 points (0: an unlimited session)."""
MAX_SCORE = 2**24
"""A final score: a match ends at its length plus at most one game's points."""
MAX_GAME_NUMBER = MAX_INT16
"""Games are numbered 1, 2, ... in a ``smallint``."""
MAX_SEED = MAX_INT32
"""A tournament's random seed is stored as a 32-bit integer."""

MAX_SEATS = 64
"""Players at one chouette table (and the largest partner threshold)."""
MAX_ROLLS = 20
"""Rolls one player may give for the chouette's opening order (the first and its
re-rolls): twenty ties in a row is a table playing games with the server."""
MAX_AUTOMATIC_DOUBLES = 10
MAX_STAKE_MULTIPLE = 4

MAX_CLUB_NAME = 120
MAX_CLUB_SLUG = 60
MAX_PLAYER_NAME = 80
MAX_PLAYER_SLUG = 90
MAX_TOURNAMENT_SLUG = 80
MAX_LABEL = 120
MAX_TABLE = 999
"""Tables in a playing room are numbered 1 to 999 (a ``smallint``, well below its bound)."""
MAX_REASON = 2000
"""A dispute's reason or a director's resolution."""
MAX_DESCRIPTION = 5000
MAX_RATING = 10000
MAX_EMAIL = 254
"""An e-mail address (RFC 5321's path limit, Django's ``EmailField`` default)."""
MAX_BULK_NAMES = 1024
"""Lines in one bulk registration: a championship's whole field (512 and its waitlist)
in one request, far below an attack (entered with a fixed number of inserts)."""

MAX_PLAYS_ANSWERED = 100
"""Legal plays one answer of ``POST /api/v1/variants/{key}/plays/`` carries: a Russian
1-1 from a spread position has over a thousand (370 KB of JSON); the answer says
``truncated`` and the ``total`` (issue #37, item 7)."""

MAX_JSON_DEPTH = 64
"""How deeply a JSON body may nest; deeper bodies are refused before parsing."""
