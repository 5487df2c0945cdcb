"""GNU Backgammon analyses a nackgammon match from the nackgammon start (docs/rules.md,
"Analysis of variants"): the match's variant puts the ``Variation`` tag in front of a
transcript that has none, and gnubg's ``import mat`` plays from that variant's position."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis import engine, engine_databases, services
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


DATA = Path(__file__).resolve().parents[1] / "games" / "rules" / "variants" / "data"


@pytest.mark.skipif(
    engine_databases.missing_database("hypergammon-1") is not None,
    reason="no hyper1.bd: make install builds it with Debian's makehyper (apt-get install gnubg)",
)
def test_a_hypergammon_match_is_analysed_with_figures(make_match, client):
    """A transcript GNU Backgammon wrote of a hypergammon-1 match, analysed by gnubg from
    its hypergammon database: candidate plays, equities and the players' figures."""
    match = make_match(5, variant="hypergammon-1")
    match.transcript = (DATA / "gnubg-hypergammon-1.mat").read_text()
    match.save(update_fields=["transcript"])
    analysis = services.analyse_match(match_id=match.pk, plies=0)
    checker = Decision.objects.filter(analysis=analysis, kind="checker")
    assert checker.exists()
    assert all(d.best for d in checker)  # gnubg ranked the plays: it evaluated them
    assert all(p.pr is not None and p.decisions > 0 for p in analysis.players.all())
    me, opp = engine.board_from_id(checker.order_by("pk").first().position_id)
    assert sum(me[1:26]) == 1 and sum(opp[1:26]) == 1  # one man a side, on the board
    page = client.get(f"/matches/{match.pk}/analysis/").content.decode()
    assert "<svg" in page  # the worst decisions drawn
    assert "14 off" not in page  # one man a side: none is ever 14 men off


def test_without_its_database_a_hypergammon_match_is_refused_not_analysed_blind(
    make_match, monkeypatch, tmp_path, client
):
    """No ``hyper3.bd`` on the server: the request is refused with the file named, and
    the page says why, rather than an analysis with no figures."""
    from core.errors import RuleViolation

    monkeypatch.setattr(engine_databases, "DATA_DIR", tmp_path)  # a server without the databases
    match = make_match(5, variant="hypergammon-3")
    match.transcript = (DATA / "gnubg-hypergammon-3.mat").read_text()
    match.save(update_fields=["transcript"])
    assert services.missing_engine_database(match) == "hyper3.bd"
    assert not services.analysable(match)
    with pytest.raises(RuleViolation) as refused:
        services.request_analysis(user=None, match=match, automatic=True)
    assert refused.value.code == "engine_database_missing"
    assert "hyper3.bd" in str(refused.value.message)
    page = client.get(f"/matches/{match.pk}/analysis/")
    assert page.status_code == 200
    assert b'data-role="no-engine-database"' in page.content and b"hyper3.bd" in page.content
    match_page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-role="not-analysed"' in match_page  # never "not ready yet"
    assert f"/matches/{match.pk}/analysis/" in match_page
