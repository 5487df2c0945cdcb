"""The WBGF world ranking: which events count, and the finishing order they report.

An event counts when all three hold (the WBGF's conditions as the issue quotes them):

- **field**: at least 30 players;
- **match length**: a knockout ("cup") plays matches of at least 9 points; a round robin
  (and a Swiss, which the WBGF treats like one: every player plays every round) at
  least 7. The shortest match of the main competition is what is checked: a 7-point
  first round makes a cup fail, however long its final;
- **buy-in**: at least €50. The buy-in is what an entrant pays to play (the event's
  registration fee plus the main pool's fee); an event kept in another currency cannot
  be checked against a euro amount, so it fails with that said, never converted at a
  guessed rate.

The finishing order lists **every entrant**, placed or not, as the WBGF asks: the
director enters it at results.wbgf.info.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from core.errors import N_, Text

MIN_PLAYERS = 30
CUP_MIN_LENGTH = 9
ROUND_ROBIN_MIN_LENGTH = 7
MIN_BUY_IN = Decimal(50)
CURRENCY = "EUR"


@dataclass(frozen=True)
class EventFacts:
    """What the checks read: the field, the kind of event, its shortest main match and
    the buy-in (None: the club keeps no money for the event, so no buy-in is known)."""

    players: int
    knockout: bool
    shortest_length: int
    buy_in: Decimal | None
    currency: str = CURRENCY


@dataclass(frozen=True)
class Check:
    """One condition: its code, the rule, what the event has, and whether it holds."""

    code: str
    rule: Text
    found: Text
    passed: bool


def field_check(facts: EventFacts) -> Check:
    return Check(
        "field_size",
        N_("At least %(players)s players", players=MIN_PLAYERS),
        N_("%(players)s players", players=facts.players),
        facts.players >= MIN_PLAYERS,
    )


def length_check(facts: EventFacts) -> Check:
    if facts.knockout:
        rule = N_("A cup of %(length)s-point matches or longer", length=CUP_MIN_LENGTH)
        minimum = CUP_MIN_LENGTH
    else:
        rule = N_(
            "A round robin of %(length)s-point matches or longer", length=ROUND_ROBIN_MIN_LENGTH
        )
        minimum = ROUND_ROBIN_MIN_LENGTH
    if facts.shortest_length < 1:
        return Check("match_length", rule, N_("No match length"), False)
    found = N_("Shortest match: %(length)s points", length=facts.shortest_length)
    return Check("match_length", rule, found, facts.shortest_length >= minimum)


def buy_in_check(facts: EventFacts) -> Check:
    rule = N_("A buy-in of at least %(amount)s %(currency)s", amount=MIN_BUY_IN, currency=CURRENCY)
    if facts.buy_in is None:
        return Check("buy_in", rule, N_("No fee recorded for the event"), False)
    found = N_("%(amount)s %(currency)s", amount=facts.buy_in, currency=facts.currency)
    if facts.currency != CURRENCY:
        found = N_(
            "%(amount)s %(currency)s (not euros: check it yourself)",
            amount=facts.buy_in,
            currency=facts.currency,
        )
        return Check("buy_in", rule, found, False)
    return Check("buy_in", rule, found, facts.buy_in >= MIN_BUY_IN)


def checks(facts: EventFacts) -> list[Check]:
    """The three conditions, in the order the WBGF lists them."""
    return [field_check(facts), length_check(facts), buy_in_check(facts)]


def qualifies(facts: EventFacts) -> bool:
    """True when the event counts for the world ranking (every check holds)."""
    return all(check.passed for check in checks(facts))
