"""The audit trail in words: one sentence per recorded change.

The history tables (django-simple-history) keep every version of a match and its
games. Read raw, a change says
``winner: None → 1``; a director wants "Ann entered game 3: Ann won a gammon on a
2-cube (4 points)". This module turns one normalised change record into that
sentence. It knows nothing of Django: the audit module (``games.audit``) reads the
history, resolves who did it and builds a :class:`ChangeRecord`; this module only
decides the words, so each action's wording is unit-tested without a database. An app
that records other rows (a club's side games, say) tells them with its own describers
built on the same record and value words, passed to :func:`describe`.

The action a write performed is not stored as such (a confirmation is a match row whose
``confirmation`` went from pending to confirmed), so the describer infers it from
what changed, in the order the services write: a reopening carries its reason, a void
or forfeit changes the status, a final score sets ``final_score_only``, and so on.
Anything it does not recognise falls back to "field: before → after" with the
field's readable name, never a raw ``None``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

#: ``remove_game`` moves later games aside by this offset before renumbering them
#: (the unique game number would clash otherwise); a number above it is that move.
RENUMBER_OFFSET = 10000

#: A history reason starting so was written by no person (the bracket voiding a match
#: it replaces): the audit says "the system", and the rest of the reason says why.
AUTOMATIC = "automatic: "
#: Who an automatic change is told as.
SYSTEM = "the system"
#: How the audit module marks who wrote through a player's private score link.
SCORE_LINK = "score link"
#: A director's ruling on a dispute, in words (``Dispute.Decision``).
DECISION_WORDS = {"keep": "kept", "corrected": "corrected to", "void": "voided the match"}

#: Fields of a match or a game holding a player id: shown as the player's name. An app
#: whose rows name players in other fields says so in its records' ``player_fields``.
PLAYER_FIELDS = frozenset({"winner", "awaiting", "player1", "player2", "entered_by"})

#: Match fields a game write re-derives; they are told as the new score, not one by one.
MATCH_BOOKKEEPING = frozenset({"version", "finished_at", "transcript_hash"})
#: Game fields the rules derive from the others (a correction re-derives later games).
GAME_DERIVED = ("number", "score1_before", "score2_before", "crawford", "post_crawford", "points")
#: Game fields a person enters.
GAME_ENTERED = ("winner", "level", "cube", "cube_owner", "ending")

LEVEL_WORDS = {"single": "a single game", "gammon": "a gammon", "backgammon": "a backgammon"}
STATUS_WORDS = {
    "scheduled": "scheduled",
    "in_progress": "in progress",
    "finished": "finished",
    "forfeit": "forfeited",
    "void": "void",
}


@dataclass(frozen=True)
class ChangeRecord:
    """One version of one row, ready to be told.

    ``kind`` is ``match`` or ``game`` here (another app's describers add their own
    kinds, see :func:`describe`); ``action`` is ``created``, ``changed`` or
    ``deleted``. ``before`` and ``after`` are the row's field values (raw: player
    ids, choice keys) before and after the change (empty for a creation's before
    and a deletion's after). ``names`` maps player ids to display names; ``labels``
    maps field names to their readable (verbose) names. ``context`` carries what the
    row itself does not hold: ``players`` (the match's two player ids),
    ``dispute_reason``, ``resolution``, ``last`` (a deleted game was the last one),
    and whatever another app's describers read.
    """

    kind: str
    action: str
    who: str | None = None
    number: int | None = None
    before: Mapping[str, Any] = field(default_factory=dict)
    after: Mapping[str, Any] = field(default_factory=dict)
    names: Mapping[int, str] = field(default_factory=dict)
    labels: Mapping[str, str] = field(default_factory=dict)
    reason: str | None = None
    context: Mapping[str, Any] = field(default_factory=dict)
    #: Fields holding one player id, and fields holding a list of them (said as names).
    player_fields: frozenset[str] = PLAYER_FIELDS
    player_list_fields: frozenset[str] = frozenset()

    def changed(self) -> list[str]:
        """The fields whose value differs, in the order of ``after`` (then ``before``)."""
        keys = list(self.after) + [k for k in self.before if k not in self.after]
        return [k for k in keys if self.before.get(k) != self.after.get(k)]


# --- values -----------------------------------------------------------------------------------


def player(record: ChangeRecord, pk: Any) -> str:
    """A player id as a name ("not set" for none, "player 7" for an unknown id)."""
    if pk is None or pk == "":
        return "not set"
    try:
        return record.names.get(int(pk), f"player {pk}")
    except (TypeError, ValueError):
        return str(pk)


def value_words(record: ChangeRecord, name: str, value: Any) -> str:
    """A field's value as a reader says it: names for players, "none" for nothing."""
    if value is None or value == "" or value == [] or value == {}:
        return "not set" if name in record.player_fields else "none"
    if name in record.player_fields:
        return player(record, value)
    if name in record.player_list_fields and isinstance(value, list):
        return ", ".join(player(record, pk) for pk in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{player(record, k)} {v}" for k, v in value.items())
    if name == "cube_owner" and value in ("player1", "player2"):
        players = record.context.get("players")
        if players:
            return player(record, players[0 if value == "player1" else 1])
    if isinstance(value, str) and name in ("status", "confirmation"):
        return STATUS_WORDS.get(value, value.replace("_", " "))
    return str(value).replace("_", " ") if isinstance(value, str) and "_" in value else str(value)


def label(record: ChangeRecord, name: str) -> str:
    return record.labels.get(name) or name.replace("_", " ")


def field_changes(record: ChangeRecord, names: list[str]) -> str:
    """ "winner Ann → Bob, cube 2 → 4": each named field's before and after."""
    return ", ".join(
        f"{label(record, n)} {value_words(record, n, record.before.get(n))} → "
        f"{value_words(record, n, record.after.get(n))}"
        for n in names
    )


def doer(record: ChangeRecord, fallback: str = "someone") -> str:
    """Who made the change, as the audit module resolved it."""
    return record.who or fallback


def _points(n: int) -> str:
    return f"{n} point{'s' if n != 1 else ''}"


def _score(record: ChangeRecord, row: Mapping[str, Any]) -> str:
    one, two = record.context.get("players", (row.get("player1"), row.get("player2")))
    first, second = player(record, one), player(record, two)
    return f"{first} {row.get('score1', 0)} – {second} {row.get('score2', 0)}"


# --- matches ----------------------------------------------------------------------------------


def game_result(record: ChangeRecord, row: Mapping[str, Any]) -> str:
    """ "Ann won a gammon on a 2-cube (4 points, the Crawford game)"."""
    winner = player(record, row.get("winner"))
    cube = row.get("cube") or 1
    ending = row.get("ending") or "played"
    if ending == "dropped":
        text = f"{winner} won: the {cube}-cube was dropped"
    elif ending == "match_resigned":
        text = f"{winner} won: the match was resigned"
    else:
        level = LEVEL_WORDS.get(row.get("level") or "single", str(row.get("level")))
        text = f"{winner} won {level}"
        if cube > 1:
            text += f" on a {cube}-cube"
        if ending == "resigned":
            text += " (resigned)"
    notes = []
    if row.get("points") is not None:
        notes.append(_points(int(row["points"])))
    if row.get("crawford"):
        notes.append("the Crawford game")
    return text + (f" ({', '.join(notes)})" if notes else "")


def _describe_game(record: ChangeRecord) -> str:
    n = record.number
    if record.action == "created":
        return f"{doer(record)} entered game {n}: {game_result(record, record.after)}"
    if record.action == "deleted":
        verb = "undid" if record.context.get("last", True) else "removed"
        tail = "" if record.context.get("last", True) else "; later games renumbered"
        return (
            f"{doer(record)} {verb} game {n}, which said {game_result(record, record.before)}{tail}"
        )
    changed = record.changed()
    entered = [f for f in GAME_ENTERED if f in changed]
    if entered:
        return f"{doer(record)} corrected game {n}: {field_changes(record, entered)}"
    old, new = record.before.get("number"), record.after.get("number")
    if "number" in changed and isinstance(new, int) and new >= RENUMBER_OFFSET:
        return f"game {old} set aside while later games are renumbered"
    if "number" in changed and isinstance(old, int):
        shown = old - RENUMBER_OFFSET if old >= RENUMBER_OFFSET else old
        return f"game {shown} is now game {new} (an earlier game was removed)"
    derived = [f for f in GAME_DERIVED if f in changed]
    if derived:
        return f"game {n} re-derived after a correction: {field_changes(record, derived)}"
    if changed == ["confirmed"] and record.after.get("confirmed"):
        return f"{doer(record)} confirmed game {n}"
    if not changed:
        return f"{doer(record)} saved game {n} unchanged"
    return f"{doer(record)} changed game {n}: {field_changes(record, changed)}"


def _describe_match(record: ChangeRecord) -> str:
    before, after = record.before, record.after
    if record.action == "created":
        length = after.get("length")
        size = f"{length}-point match" if length else "unlimited session"
        rated = "rated" if after.get("rated") else "unrated"
        return (
            f"{doer(record)} created the match: {player(record, after.get('player1'))} v "
            f"{player(record, after.get('player2'))}, {size}, {rated}"
        )
    if record.action == "deleted":
        return f"{doer(record)} deleted the match"
    changed = [f for f in record.changed() if f not in MATCH_BOOKKEEPING]
    reason = (record.reason or "").strip()
    if reason.startswith(AUTOMATIC) and record.who is None:
        record = replace(record, who=SYSTEM)
    if reason.startswith("reopened"):
        return f"{doer(record)} reopened the match{reason.removeprefix('reopened')}"
    status_from, status_to = before.get("status"), after.get("status")
    if status_to != status_from and status_to == "void":
        if reason.startswith(AUTOMATIC):
            return f"{SYSTEM} voided the match because {reason.removeprefix(AUTOMATIC)}"
        if record.context.get("decision"):
            return _ruling(record)
        return f"{doer(record)} voided the match" + (f": {reason}" if reason else "")
    if status_to != status_from and status_to == "forfeit":
        return (
            f"{doer(record)} awarded the match to {player(record, after.get('winner'))} by forfeit"
        )
    conf_from, conf_to = before.get("confirmation"), after.get("confirmation")
    if conf_to == "disputed" and conf_from != "disputed":
        who = record.context.get("disputed_by") or doer(record)
        why = record.context.get("dispute_reason")
        return f"{who} disputed" + (f": {why}" if why else " the entries")
    score_moved = any(f in changed for f in ("score1", "score2"))
    if after.get("final_score_only") and not before.get("final_score_only"):
        text = f"{doer(record)} entered the final score: {_score(record, after)}"
        return text + _awaiting(record)
    if after.get("final_score_only") and score_moved:
        return (
            f"{doer(record)} corrected the final score: {_score(record, before)} → "
            f"{_score(record, after)}"
        )
    if (conf_from == "disputed" and conf_to == "confirmed") or (
        not changed and record.context.get("decision")
    ):
        return _ruling(record)
    if conf_from == "pending" and conf_to == "confirmed" and not score_moved:
        who = record.who or player(record, before.get("awaiting"))
        return f"{who} confirmed the entries ({_score(record, after)})"
    if "table" in changed:
        rest = [f for f in changed if f != "table"]
        text = (
            f"{doer(record)} set the table: {value_words(record, 'table', after.get('table'))}"
            if after.get("table") not in (None, "")
            else f"{doer(record)} cleared the table"
        )
        return text + (f"; {field_changes(record, rest)}" if rest else "")
    if score_moved or status_to != status_from:
        return _score_line(record) + _awaiting(record)
    if not changed:
        return "the match was saved unchanged"
    words = {"confirmation", "awaiting"}
    if set(changed) <= words:
        return (
            "the match "
            + ("awaits no one" if not after.get("awaiting") else "awaits a confirmation")
            + _awaiting(record)
        )
    return f"{doer(record)} changed the match: {field_changes(record, changed)}"


def _ruling(record: ChangeRecord) -> str:
    """ "Ann ruled: kept Alice 7 – Bob 3 (the sheet says so)": a director's decision on
    a dispute, with the score it leaves and the note the players were given."""
    decision = record.context.get("decision") or "keep"
    words = DECISION_WORDS.get(decision, decision)
    text = f"{doer(record)} ruled: {words}"
    if decision != "void":
        text += f" {_score(record, record.after)}"
    note = record.context.get("resolution")
    return text + (f" ({note})" if note else "")


def _score_line(record: ChangeRecord) -> str:
    after = record.after
    if after.get("status") == "finished" and after.get("winner"):
        return f"{player(record, after['winner'])} won the match ({_score(record, after)})"
    if record.before.get("status") == "finished":
        return f"the match is open again: {_score(record, after)}"
    return f"score now {_score(record, after)}"


def _awaiting(record: ChangeRecord) -> str:
    waiting = record.after.get("awaiting")
    if waiting and waiting != record.before.get("awaiting"):
        return f"; waiting for {player(record, waiting)} to confirm"
    return ""


Describer = Callable[[ChangeRecord], str]

#: One describer per kind of row this app records.
DESCRIBERS: Mapping[str, Describer] = {"match": _describe_match, "game": _describe_game}


def describe(record: ChangeRecord, describers: Mapping[str, Describer] = DESCRIBERS) -> str:
    """One sentence for one recorded change (see the module docstring).

    Another app tells its own kinds of rows by passing its ``describers``; a kind
    nobody describes falls back to its changed fields in readable words.
    """
    describer = describers.get(record.kind)
    if describer is None:
        return f"{doer(record)} {record.action} {record.kind}: " + field_changes(
            record, record.changed()
        )
    return describer(record)
