"""Human names for a tournament's slots: "Consolation, round 1, match 2", "Semi-final 1".

Slot keys (``consolation-r1-m2``, ``swiss-r4-b7``) identify slots for the code and the
API; people in the room read these labels instead (the director's dashboard, the big
screen, the score cards). Pure: no Django.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: Stage kinds as a label names them (elimination stages and phases).
STAGE_NAMES = {
    "main": "Main",
    "consolation": "Consolation",
    "last_chance": "Last chance",
    "winners": "Winners' bracket",
    "losers": "Losers' bracket",
    "grand_final": "Grand final",
    "swiss": "Swiss",
    "round_robin": "Group",
    "playoff": "Playoff",
}

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
) -> str:
    """The label of slot ``slot`` (0-based, from the top) of a round.

    In a knockout stage the last round is the final and the one before it the
    semi-finals (numbered when there are several); the main draw's are plain "Final"
    and "Semi-final 1", another stage's carry its name ("Consolation final").
    Swiss and round-robin rounds name the board, counted from the top board.
    """
    name = STAGE_NAMES.get(stage_kind, stage_kind.replace("_", " ").capitalize())
    if stage_kind == "grand_final":
        return "Grand final" if round_number == 1 else "Grand final, deciding match"
    if stage_kind in ("swiss", "round_robin"):
        prefix = f"Round {round_number}"
        if stage_kind == "round_robin":
            prefix = f"Group {group}, round {round_number}"
        return f"{prefix}, bye" if bye else f"{prefix}, board {slot + 1}"
    if stage_kind in KNOCKOUT:
        from_end = rounds_in_stage - round_number
        which = "final" if from_end == 0 else "semi-final" if from_end == 1 else None
        if which is not None:
            number = f" {slot + 1}" if matches_in_round > 1 else ""
            if stage_kind == "main":
                return f"{which.capitalize()}{number}"
            return f"{name} {which}{number}"
    return f"{name}, round {round_number}, match {slot + 1}"


_BRACKET_KEY = re.compile(r"^(?P<stage>[a-z_]+)-r(?P<round>\d+)-m(?P<slot>\d+)$")


def bracket_key_labels(keys: Iterable[str]) -> dict[str, str]:
    """Labels for bracket slot keys (``main-r2-m3``), given every key of the bracket
    (the rounds of a stage and the matches of a round are counted from them); a key of
    another shape keeps itself as its label."""
    parsed: dict[str, tuple[str, int, int]] = {}
    labels: dict[str, str] = {}
    for key in keys:
        found = _BRACKET_KEY.match(key)
        if found is None:
            labels[key] = key
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


def round_title(*, stage_kind: str, round_number: int, rounds_in_stage: int) -> str:
    """A bracket column's heading: "Final", "Semi-finals", "Quarter-finals" for the
    last rounds of a knockout stage ("Consolation final" for another stage), else
    "Round n". Swiss and round-robin rounds are always "Round n"."""
    if stage_kind == "grand_final":
        return "Grand final"
    if stage_kind in KNOCKOUT:
        from_end = rounds_in_stage - round_number
        names = {0: "final", 1: "semi-finals", 2: "quarter-finals"}
        if from_end in names:
            if stage_kind == "main":
                return names[from_end].capitalize()
            name = STAGE_NAMES.get(stage_kind, stage_kind)
            return f"{name} {names[from_end]}"
    return f"Round {round_number}"


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
