"""GNU Backgammon analyses a nackgammon match from the nackgammon start (docs/rules.md,
"Analysis of variants"): the match's variant puts the ``Variation`` tag in front of a
transcript that has none, and gnubg's ``import mat`` plays from that variant's position."""

from __future__ import annotations

import pytest

from analysis import engine, services
from analysis.models import Decision
from games.rules.variants import NACKGAMMON

pytestmark = pytest.mark.django_db

NACK_GAME = """\
 1 point match

 Game 1
 alice : 0                       bob : 0
  1) 31: 23/20 6/5                 Doubles => 2
  2)  Drops
                                 Wins 1 point
"""


def test_a_nackgammon_match_is_analysed_from_the_nackgammon_start(make_match):
    match = make_match(1, variant="nackgammon")
    match.transcript = NACK_GAME  # no Variation tag: the match's variant supplies it
    match.save(update_fields=["transcript"])
    services.analyse_match(match_id=match.pk, plies=0)
    first = Decision.objects.filter(analysis__match=match, kind="checker").order_by("pk").first()
    assert first is not None and first.played.replace(" ", "") in ("23/206/5", "6/523/20")
    me, opp = engine.board_from_id(first.position_id)
    start = NACKGAMMON.start_side()[:26]
    assert (me, opp) == (start, start)
