"""A position of any variant, and the checks that it can exist.

Each side is 27 counts in its *own* numbering (:data:`~.base.SLOTS`), the mover first,
as :class:`games.rules.board.Position` keeps 26 (the extra slot holds the men not yet
entered). Plakoto's pins are the own-numbered points where a side's man lies pinned
under the other's.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import N_

from ..errors import RuleViolation
from .base import OFF, SLOTS, UNENTERED, Contact, Variant


@dataclass(frozen=True, slots=True)
class VariantPosition:
    """A position from the view of the side to move (``me``), in each side's numbering."""

    me: tuple[int, ...]
    opp: tuple[int, ...]
    me_pinned: frozenset[int] = frozenset()
    opp_pinned: frozenset[int] = frozenset()

    @classmethod
    def start(cls, variant: Variant) -> VariantPosition:
        side = variant.start_side()
        return cls(side, side)

    def flip(self) -> VariantPosition:
        """The other side's view (the other side on roll)."""
        return VariantPosition(self.opp, self.me, self.opp_pinned, self.me_pinned)

    def key(self) -> tuple[object, ...]:
        return (self.me, self.opp, self.me_pinned, self.opp_pinned)


def bad(message: str, field: str) -> RuleViolation:
    return RuleViolation("bad_position", message, field)


def validate(variant: Variant, position: VariantPosition) -> None:
    """Raise ``bad_position`` naming what is wrong unless ``position`` can occur in
    ``variant``: the counts, men not yet entered only where the variant starts off the
    board, each point held by one side (or, in plakoto, one man pinned under the other's).
    """
    n = variant.checkers
    for name, side in (("mover", position.me), ("opponent", position.opp)):
        if len(side) != SLOTS or min(side) < 0:
            raise bad(N_("%(side)s: counts must not be negative", side=name), name)
        if sum(side) != n:
            raise bad(
                N_(
                    "%(side)s has %(count)s checkers; %(variant)s plays %(n)s a side",
                    side=name,
                    count=sum(side),
                    variant=variant.name,
                    n=n,
                ),
                name,
            )
        if side[UNENTERED] and not variant.start_off_board:
            raise bad(
                N_(
                    "%(side)s has checkers not yet entered; %(variant)s starts with them "
                    "on the board",
                    side=name,
                    variant=variant.name,
                ),
                f"{name}.not_entered",
            )
    if variant.contact is not Contact.PIN and (position.me_pinned or position.opp_pinned):
        raise bad(N_("only plakoto pins checkers"), "pinned")
    for name, pins, side, other in (
        ("mover", position.me_pinned, position.me, position.opp),
        ("opponent", position.opp_pinned, position.opp, position.me),
    ):
        for p in pins:
            if not 1 <= p <= 24 or side[p] != 1 or not other[variant.opposing_point(p)]:
                raise bad(
                    N_(
                        "%(side)s: a pinned checker is alone on its point, under the "
                        "other side's (%(p)s)",
                        side=name,
                        p=p,
                    ),
                    f"{name}.pinned",
                )
    for p in range(1, 25):
        q = variant.opposing_point(p)
        mine, theirs = position.me[p], position.opp[q]
        if not (mine and theirs):
            continue
        pinned_under = (p in position.me_pinned) != (q in position.opp_pinned)
        if variant.contact is Contact.PIN and pinned_under:
            continue
        raise bad(
            N_("point %(p)s is held by both sides", p=p),
            "opponent.points",
        )
    if position.me[OFF] == n and position.opp[OFF] == n:
        raise bad(N_("both sides cannot have borne off every checker"), "off")
