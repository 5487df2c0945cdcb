"""Human names for a tournament's slots: "Consolation, round 1, match 2", "Semi-final 1".

Slot keys (``consolation-r1-m2``, ``swiss-r4-b7``) identify slots for the code and the
API; people in the room read these labels instead (the director's dashboard, the big
screen, the score cards). Pure: no Django.

Every label is a :class:`core.errors.Text`: it *is* the English label (comparisons, the
API, logs) and renders in the reader's language (``str()`` in a page), so nothing here
is stored translated: a label is built from the slot's key each time it is shown, and a
German and a French player reading the same bracket each read their own language
(``docs/languages.md``, "Names the code builds").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.errors import N_, Text

#: Stage kinds as a label names them (elimination stages and phases).
STAGE_NAMES = {
    "main": N_("Main"),
    "consolation": N_("Consolation"),
    "last_chance": N_("Last chance"),
    "winners": N_("Winners' bracket"),
    "losers": N_("Losers' bracket"),
    "grand_final": N_("Grand final"),
    "swiss": N_("Swiss"),
    "round_robin": N_("Group"),
    "playoff": N_("Playoff"),
}


def stage_name(stage_kind: str) -> Text:
    """A stage's name ("Consolation"); an unknown kind reads as its key, capitalised."""
    found = STAGE_NAMES.get(stage_kind)
    return found if found is not None else Text(stage_kind.replace("_", " ").capitalize())


#: Stages whose last rounds are a final and semi-finals (knockout brackets).
KNOCKOUT = {"main", "consolation", "last_chance", "winners", "losers", "playoff"}


def slot_label(
    *,
    stage_kind: str,
    round_number: int,
    slot: int,
    rounds_in_stage: int,
    matches_in_round: int,
    group: int = 0,
    bye: bool = False,
) -> Text:
    """The label of slot ``slot`` (0-based, from the top) of a round.

    In a knockout stage the last round is the final and the one before it the
    semi-finals (numbered when there are several); the main draw's are plain "Final"
    and "Semi-final 1", another stage's carry its name ("Consolation final").
    Swiss and round-robin rounds name the board, counted from the top board.
    """
    name = stage_name(stage_kind)
    if stage_kind == "grand_final":
        return N_("Grand final") if round_number == 1 else N_("Grand final, deciding match")
    if stage_kind == "swiss":
        if bye:
            return N_("Round %(number)s, bye", number=round_number)
        return N_("Round %(number)s, board %(board)s", number=round_number, board=slot + 1)
    if stage_kind == "round_robin":
        if bye:
            return N_("Group %(group)s, round %(number)s, bye", group=group, number=round_number)
        return N_(
            "Group %(group)s, round %(number)s, board %(board)s",
            group=group,
            number=round_number,
            board=slot + 1,
        )
    if stage_kind in KNOCKOUT:
        from_end = rounds_in_stage - round_number
        numbered = matches_in_round > 1
        if from_end == 0 and stage_kind == "main":
            return N_("Final %(number)s", number=slot + 1) if numbered else N_("Final")
        if from_end == 1 and stage_kind == "main":
            return N_("Semi-final %(number)s", number=slot + 1) if numbered else N_("Semi-final")
        if from_end == 0:
            if numbered:
                return N_("%(stage)s final %(number)s", stage=name, number=slot + 1)
            return N_("%(stage)s final", stage=name)
        if from_end == 1:
            if numbered:
                return N_("%(stage)s semi-final %(number)s", stage=name, number=slot + 1)
            return N_("%(stage)s semi-final", stage=name)
    return N_(
        "%(stage)s, round %(number)s, match %(match)s",
        stage=name,
        number=round_number,
        match=slot + 1,
    )


_BRACKET_KEY = re.compile(r"^(?P<stage>[a-z_]+)-r(?P<round>\d+)-m(?P<slot>\d+)$")


def bracket_key_labels(keys: Iterable[str]) -> dict[str, Text]:
    """Labels for bracket slot keys (``main-r2-m3``), given every key of the bracket
    (the rounds of a stage and the matches of a round are counted from them); a key of
    another shape keeps itself as its label."""
    parsed: dict[str, tuple[str, int, int]] = {}
    labels: dict[str, Text] = {}
    for key in keys:
        found = _BRACKET_KEY.match(key)
        if found is None:
            labels[key] = Text(key)
        else:
            parsed[key] = (found["stage"], int(found["round"]), int(found["slot"]) - 1)
    rounds: dict[str, int] = {}
    per_round: dict[tuple[str, int], int] = {}
    for stage, number, _ in parsed.values():
        rounds[stage] = max(rounds.get(stage, 0), number)
        per_round[(stage, number)] = per_round.get((stage, number), 0) + 1
    for key, (stage, number, slot) in parsed.items():
        labels[key] = slot_label(
            stage_kind=stage,
            round_number=number,
            slot=slot,
            rounds_in_stage=rounds[stage],
            matches_in_round=per_round[(stage, number)],
        )
    return labels


def round_title(*, stage_kind: str, round_number: int, rounds_in_stage: int) -> Text:
    """A bracket column's heading: "Final", "Semi-finals", "Quarter-finals" for the
    last rounds of a knockout stage ("Consolation final" for another stage), else
    "Round n". Swiss and round-robin rounds are always "Round n"."""
    if stage_kind == "grand_final":
        return N_("Grand final")
    if stage_kind in KNOCKOUT:
        from_end = rounds_in_stage - round_number
        if stage_kind == "main":
            main = {0: N_("Final"), 1: N_("Semi-finals"), 2: N_("Quarter-finals")}
            if from_end in main:
                return main[from_end]
        else:
            name = stage_name(stage_kind)
            if from_end == 0:
                return N_("%(stage)s final", stage=name)
            if from_end == 1:
                return N_("%(stage)s semi-finals", stage=name)
            if from_end == 2:
                return N_("%(stage)s quarter-finals", stage=name)
    return N_("Round %(number)s", number=round_number)


def stage_round_title(*, stage_kind: str, round_number: int, rounds_in_stage: int) -> Text:
    """A round's name in an event's preview: :func:`round_title`, with the stage named
    outside the main draw ("Consolation, round 1") and the grand final's second match
    as "Grand final, deciding match"."""
    if stage_kind == "grand_final" and round_number == 2:
        return N_("Grand final, deciding match")
    title = round_title(
        stage_kind=stage_kind, round_number=round_number, rounds_in_stage=rounds_in_stage
    )
    if stage_kind != "main" and title.template == "Round %(number)s":
        return N_("%(stage)s, round %(number)s", stage=stage_name(stage_kind), number=round_number)
    return title


def column_title(*, title: Text, length: int) -> Text:
    """A bracket column's heading with its match length: "Round 1 · 9 pts"."""
    return N_("%(round)s · %(length)s pts", round=title, length=length)


#: A stage's letter in a short label (the big screen, read from across the room).
SHORT_STAGE = {
    "main": "M",
    "consolation": "C",
    "last_chance": "L",
    "winners": "W",
    "losers": "LB",
    "grand_final": "GF",
    "swiss": "R",
    "round_robin": "G",
    "playoff": "P",
}


def short_label(*, stage_kind: str, round_number: int, slot: int, group: int = 0) -> str:
    """A slot's label in a few characters: "M1-3" (main, round 1, match 3), "C2-1"
    (consolation), "L1-2" (last chance), "W3-1" / "LB2-4" (double elimination), "GF"
    and "GF2" (the grand final and its deciding match), "R4-7" (Swiss round 4, board 7),
    "G2 R1-3" (round-robin group 2). The big screen shows these, with the full label
    (``slot_label``) as the cell's title, so a match column never wraps."""
    if stage_kind == "grand_final":
        return "GF" if round_number == 1 else f"GF{round_number}"
    letter = SHORT_STAGE.get(stage_kind, stage_kind[:1].upper())
    if stage_kind == "round_robin":
        return f"G{group} R{round_number}-{slot + 1}"
    return f"{letter}{round_number}-{slot + 1}"
