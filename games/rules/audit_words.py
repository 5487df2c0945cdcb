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

Every sentence is a :class:`core.errors.Text` (``N_``): English as a ``str`` (logs,
comparisons, these tests), and in the reader's language when a page renders it or the
API's door asks for ``str()`` (issue #41, item 10). The trail is told from the history
rows each time it is read, so past rows read in the reader's language too; nothing
stored changed. Values inside a sentence are Texts as well (a status, "the system", a
level), so they translate with it; a list of them is ``core.errors.listing``, since
``", ".join`` would keep only their English.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from core.errors import N_, Text, listing

#: ``remove_game`` moves later games aside by this offset before renumbering them
#: (the unique game number would clash otherwise); a number above it is that move.
RENUMBER_OFFSET = 10000

#: A history reason starting so was written by no person (the bracket voiding a match
#: it replaces): the audit says "the system", and the rest of the reason says why. The
#: rest is stored in English; a service marks it for the catalog (``gettext_noop``) so
#: the trail can tell it in the reader's language.
AUTOMATIC = "automatic: "
#: Who an automatic change is told as.
SYSTEM = N_("the system")
#: Who a change is told as when the history names nobody.
SOMEONE = N_("someone")
#: How the audit module marks who wrote through a player's private score link.
SCORE_LINK = "score link"
#: A director's ruling on a dispute, in words (``Dispute.Decision``), the score it
#: leaves filled in (a void leaves none).
RULINGS = {
    "keep": N_("%(who)s ruled: kept %(score)s"),
    "corrected": N_("%(who)s ruled: corrected to %(score)s"),
    "void": N_("%(who)s ruled: voided the match"),
}
#: A reopening's reason as the service writes it: "reopened (was void): wrong match".
REOPENED = re.compile(r"reopened \(was (?P<was>[^)]*)\)(?:: (?P<why>.*))?", re.DOTALL)

#: Fields of a match or a game holding a player id: shown as the player's name. An app
#: whose rows name players in other fields says so in its records' ``player_fields``.
PLAYER_FIELDS = frozenset({"winner", "awaiting", "player1", "player2", "entered_by"})

#: Match fields a game write re-derives; they are told as the new score, not one by one.
MATCH_BOOKKEEPING = frozenset({"version", "finished_at", "transcript_hash"})
#: Game fields the rules derive from the others (a correction re-derives later games).
GAME_DERIVED = ("number", "score1_before", "score2_before", "crawford", "post_crawford", "points")
#: Game fields a person enters.
GAME_ENTERED = ("winner", "level", "cube", "cube_owner", "ending")

LEVEL_WORDS = {
    "single": N_("a single game"),
    "gammon": N_("a gammon"),
    "backgammon": N_("a backgammon"),
}
STATUS_WORDS = {
    "scheduled": N_("scheduled"),
    "in_progress": N_("in progress"),
    "finished": N_("finished"),
    "forfeit": N_("forfeited"),
    "void": N_("void"),
}
#: A match's state before a reopening, as ``state_name`` writes it into the reason.
STATE_WORDS = {
    "finished and confirmed": N_("finished and confirmed"),
    "forfeited": N_("forfeited"),
    "void": N_("void"),
    "finished": N_("finished"),
    "in progress": N_("in progress"),
    "scheduled": N_("scheduled"),
}

#: The fields a correction names, in words: the models set no translated verbose name
#: for them, and Django's derived one ("cube owner") would stay English in every language.
FIELD_WORDS = {
    "winner": N_("winner"),
    "level": N_("level"),
    "cube": N_("cube"),
    "cube_owner": N_("cube owner"),
    "ending": N_("ending"),
    "number": N_("number"),
    "points": N_("points"),
    "crawford": N_("Crawford game"),
    "label": N_("label"),
    "length": N_("length"),
    "status": N_("status"),
    "confirmation": N_("confirmation"),
    "awaiting": N_("awaiting"),
}
#: A choice's stored value in words, by field (a player's side is said as their name).
CHOICE_WORDS = {
    "level": {"single": N_("single"), "gammon": N_("gammon"), "backgammon": N_("backgammon")},
    "ending": {
        "played": N_("played out"),
        "dropped": N_("double dropped"),
        "resigned": N_("resigned"),
        "match_resigned": N_("match resigned"),
    },
    "cube_owner": {"centre": N_("centre"), "unknown": N_("not recorded")},
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


def by_link(name: str) -> Text:
    """ "Fatima Khan (score link)": a player who wrote through their private link (no
    account signed in), so the trail never says "someone" for a player's entry."""
    return N_("%(name)s (score link)", name=name)


def player(record: ChangeRecord, pk: Any) -> str:
    """A player id as a name ("not set" for none, "player 7" for an unknown id)."""
    if pk is None or pk == "":
        return N_("not set")
    try:
        return record.names.get(int(pk)) or N_("player %(id)s", id=pk)
    except (TypeError, ValueError):
        return str(pk)


def value_words(record: ChangeRecord, name: str, value: Any) -> str:
    """A field's value as a reader says it: names for players, "none" for nothing."""
    if value is None or value == "" or value == [] or value == {}:
        return N_("not set") if name in record.player_fields else N_("none")
    if name in record.player_fields:
        return player(record, value)
    if name in record.player_list_fields and isinstance(value, list):
        return listing(player(record, pk) for pk in value)
    if isinstance(value, bool):
        return N_("yes") if value else N_("no")
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return listing(
            N_("%(player)s %(value)s", player=player(record, k), value=v) for k, v in value.items()
        )
    if name == "cube_owner" and value in ("player1", "player2"):
        players = record.context.get("players")
        if players:
            return player(record, players[0 if value == "player1" else 1])
    if isinstance(value, str) and name in ("status", "confirmation"):
        return STATUS_WORDS.get(value) or value.replace("_", " ")
    if isinstance(value, str) and value in CHOICE_WORDS.get(name, {}):
        return CHOICE_WORDS[name][value]
    return str(value).replace("_", " ") if isinstance(value, str) and "_" in value else str(value)


def label(record: ChangeRecord, name: str) -> str:
    return FIELD_WORDS.get(name) or record.labels.get(name) or name.replace("_", " ")


def field_changes(record: ChangeRecord, names: list[str]) -> str:
    """ "winner Ann → Bob, cube 2 → 4": each named field's before and after."""
    return listing(
        N_(
            "%(field)s %(before)s → %(after)s",
            field=label(record, n),
            before=value_words(record, n, record.before.get(n)),
            after=value_words(record, n, record.after.get(n)),
        )
        for n in names
    )


def doer(record: ChangeRecord, fallback: str = SOMEONE) -> str:
    """Who made the change, as the audit module resolved it."""
    return record.who or fallback


def _points(n: int) -> Text:
    # Two forms: German, French and Danish, like English, say one point and n points.
    return N_("%(n)s point", n=n) if n == 1 else N_("%(n)s points", n=n)


def _score(record: ChangeRecord, row: Mapping[str, Any]) -> Text:
    one, two = record.context.get("players", (row.get("player1"), row.get("player2")))
    return N_(
        "%(first)s %(score1)s – %(second)s %(score2)s",
        first=player(record, one),
        score1=row.get("score1", 0),
        second=player(record, two),
        score2=row.get("score2", 0),
    )


# --- matches ----------------------------------------------------------------------------------


def game_result(record: ChangeRecord, row: Mapping[str, Any]) -> str:
    """ "Ann won a gammon on a 2-cube (4 points, the Crawford game)"."""
    winner = player(record, row.get("winner"))
    cube = row.get("cube") or 1
    ending = row.get("ending") or "played"
    text: Text
    if ending == "dropped":
        text = N_("%(winner)s won: the %(cube)s-cube was dropped", winner=winner, cube=cube)
    elif ending == "match_resigned":
        text = N_("%(winner)s won: the match was resigned", winner=winner)
    else:
        level = LEVEL_WORDS.get(row.get("level") or "single") or str(row.get("level"))
        values = {"winner": winner, "level": level, "cube": cube}
        if ending == "resigned":
            text = (
                N_("%(winner)s won %(level)s on a %(cube)s-cube (resigned)", **values)
                if cube > 1
                else N_("%(winner)s won %(level)s (resigned)", **values)
            )
        else:
            text = (
                N_("%(winner)s won %(level)s on a %(cube)s-cube", **values)
                if cube > 1
                else N_("%(winner)s won %(level)s", winner=winner, level=level)
            )
    notes: list[str] = []
    if row.get("points") is not None:
        notes.append(_points(int(row["points"])))
    if row.get("crawford"):
        notes.append(N_("the Crawford game"))
    return N_("%(result)s (%(notes)s)", result=text, notes=listing(notes)) if notes else text


def _describe_game(record: ChangeRecord) -> str:
    n, who = record.number, doer(record)
    if record.action == "created":
        return N_(
            "%(who)s entered game %(number)s: %(result)s",
            who=who,
            number=n,
            result=game_result(record, record.after),
        )
    if record.action == "deleted":
        said = game_result(record, record.before)
        if record.context.get("last", True):
            return N_(
                "%(who)s undid game %(number)s, which said %(result)s",
                who=who,
                number=n,
                result=said,
            )
        return N_(
            "%(who)s removed game %(number)s, which said %(result)s; later games renumbered",
            who=who,
            number=n,
            result=said,
        )
    changed = record.changed()
    entered = [f for f in GAME_ENTERED if f in changed]
    if entered:
        return N_(
            "%(who)s corrected game %(number)s: %(changes)s",
            who=who,
            number=n,
            changes=field_changes(record, entered),
        )
    old, new = record.before.get("number"), record.after.get("number")
    if "number" in changed and isinstance(new, int) and new >= RENUMBER_OFFSET:
        return N_("game %(number)s set aside while later games are renumbered", number=old)
    if "number" in changed and isinstance(old, int):
        shown = old - RENUMBER_OFFSET if old >= RENUMBER_OFFSET else old
        return N_(
            "game %(old)s is now game %(new)s (an earlier game was removed)", old=shown, new=new
        )
    derived = [f for f in GAME_DERIVED if f in changed]
    if derived:
        return N_(
            "game %(number)s re-derived after a correction: %(changes)s",
            number=n,
            changes=field_changes(record, derived),
        )
    if changed == ["confirmed"] and record.after.get("confirmed"):
        return N_("%(who)s confirmed game %(number)s", who=who, number=n)
    if not changed:
        return N_("%(who)s saved game %(number)s unchanged", who=who, number=n)
    return N_(
        "%(who)s changed game %(number)s: %(changes)s",
        who=who,
        number=n,
        changes=field_changes(record, changed),
    )


def _describe_match(record: ChangeRecord) -> str:
    before, after = record.before, record.after
    if record.action == "created":
        length = after.get("length")
        return N_(
            "%(who)s created the match: %(player1)s v %(player2)s, %(size)s, %(rated)s",
            who=doer(record),
            player1=player(record, after.get("player1")),
            player2=player(record, after.get("player2")),
            size=N_("%(length)s-point match", length=length) if length else N_("unlimited session"),
            rated=N_("rated") if after.get("rated") else N_("unrated"),
        )
    if record.action == "deleted":
        return N_("%(who)s deleted the match", who=doer(record))
    changed = [f for f in record.changed() if f not in MATCH_BOOKKEEPING]
    reason = (record.reason or "").strip()
    if reason.startswith(AUTOMATIC) and record.who is None:
        record = replace(record, who=SYSTEM)
    if reason.startswith("reopened"):
        return _reopening(record, reason)
    status_from, status_to = before.get("status"), after.get("status")
    if status_to != status_from and status_to == "void":
        if reason.startswith(AUTOMATIC):
            # the stored reason is English; the catalog may know it (gettext_noop)
            because = Text(reason.removeprefix(AUTOMATIC))
            return N_("the system voided the match because %(reason)s", reason=because)
        if record.context.get("decision"):
            return _ruling(record)
        if reason:
            return N_("%(who)s voided the match: %(reason)s", who=doer(record), reason=reason)
        return N_("%(who)s voided the match", who=doer(record))
    if status_to != status_from and status_to == "forfeit":
        return N_(
            "%(who)s awarded the match to %(winner)s by forfeit",
            who=doer(record),
            winner=player(record, after.get("winner")),
        )
    conf_from, conf_to = before.get("confirmation"), after.get("confirmation")
    if conf_to == "disputed" and conf_from != "disputed":
        who = record.context.get("disputed_by") or doer(record)
        why = record.context.get("dispute_reason")
        if why:
            return N_("%(who)s disputed: %(reason)s", who=who, reason=why)
        return N_("%(who)s disputed the entries", who=who)
    score_moved = any(f in changed for f in ("score1", "score2"))
    if after.get("final_score_only") and not before.get("final_score_only"):
        text = N_(
            "%(who)s entered the final score: %(score)s",
            who=doer(record),
            score=_score(record, after),
        )
        return _awaiting(record, text)
    if after.get("final_score_only") and score_moved:
        return N_(
            "%(who)s corrected the final score: %(before)s → %(after)s",
            who=doer(record),
            before=_score(record, before),
            after=_score(record, after),
        )
    if (conf_from == "disputed" and conf_to == "confirmed") or (
        not changed and record.context.get("decision")
    ):
        return _ruling(record)
    if conf_from == "pending" and conf_to == "confirmed" and not score_moved:
        who = record.who or player(record, before.get("awaiting"))
        return N_("%(who)s confirmed the entries (%(score)s)", who=who, score=_score(record, after))
    if "table" in changed:
        rest = [f for f in changed if f != "table"]
        text = (
            N_(
                "%(who)s set the table: %(table)s",
                who=doer(record),
                table=value_words(record, "table", after.get("table")),
            )
            if after.get("table") not in (None, "")
            else N_("%(who)s cleared the table", who=doer(record))
        )
        return listing([text, field_changes(record, rest)], "; ") if rest else text
    if score_moved or status_to != status_from:
        return _awaiting(record, _score_line(record))
    if not changed:
        return N_("the match was saved unchanged")
    if set(changed) <= {"confirmation", "awaiting"}:
        text = (
            N_("the match awaits no one")
            if not after.get("awaiting")
            else N_("the match awaits a confirmation")
        )
        return _awaiting(record, text)
    return N_(
        "%(who)s changed the match: %(changes)s",
        who=doer(record),
        changes=field_changes(record, changed),
    )


def _reopening(record: ChangeRecord, reason: str) -> Text:
    """ "Ann reopened the match (was void): wrong match", from the reason the service
    wrote (``reopened (was <state>): <why>``)."""
    found = REOPENED.fullmatch(reason)
    if found is None:  # an older or unknown shape: told as it was written
        return Text("%(who)s %(reason)s", who=doer(record), reason=reason)
    was = STATE_WORDS.get(found["was"]) or found["was"]
    if found["why"]:
        return N_(
            "%(who)s reopened the match (was %(was)s): %(reason)s",
            who=doer(record),
            was=was,
            reason=found["why"],
        )
    return N_("%(who)s reopened the match (was %(was)s)", who=doer(record), was=was)


def _ruling(record: ChangeRecord) -> Text:
    """ "Ann ruled: kept Alice 7 – Bob 3 (the sheet says so)": a director's decision on
    a dispute, with the score it leaves and the note the players were given."""
    decision = record.context.get("decision") or "keep"
    template = RULINGS.get(decision)
    values = {"who": doer(record), "score": _score(record, record.after)}
    if template is None:  # a decision this module has no words for: its code
        text = Text("%(who)s ruled: %(decision)s %(score)s", decision=decision, **values)
    else:  # a void's words name no score (the extra value is left unused)
        text = Text(template.template, **values)
    note = record.context.get("resolution")
    return N_("%(ruling)s (%(note)s)", ruling=text, note=note) if note else text


def _score_line(record: ChangeRecord) -> Text:
    after = record.after
    if after.get("status") == "finished" and after.get("winner"):
        return N_(
            "%(winner)s won the match (%(score)s)",
            winner=player(record, after["winner"]),
            score=_score(record, after),
        )
    if record.before.get("status") == "finished":
        return N_("the match is open again: %(score)s", score=_score(record, after))
    return N_("score now %(score)s", score=_score(record, after))


def _awaiting(record: ChangeRecord, text: Text) -> Text:
    """``text``, then "; waiting for Bob to confirm" when the change made Bob the one
    the match awaits."""
    waiting = record.after.get("awaiting")
    if waiting and waiting != record.before.get("awaiting"):
        return N_(
            "%(change)s; waiting for %(player)s to confirm",
            change=text,
            player=player(record, waiting),
        )
    return text


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
        return N_(
            "%(who)s %(action)s %(kind)s: %(changes)s",
            who=doer(record),
            action=record.action,
            kind=record.kind,
            changes=field_changes(record, record.changed()),
        )
    return describer(record)
