"""The money answers against the schema that types them (issue #30): an event's money
as its director, a stranger and a visitor see it, the Calcutta, master points and the
club's own table, each real answer (writes included: they answer what a GET answers)
validated against its declared schema closed to undeclared keys
(``tests.openapi_answers``), so ``money.api.shapes`` and the functions that render the
answers cannot drift apart."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.openapi_answers import check_answer, closed_live_schema
from tournaments.models import Entry
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema():
    return closed_live_schema()


def test_an_event_with_pools_and_a_calcutta_answers_as_declared(
    schema, make_event, director, client_for, make_user, win, actor, played
):
    event = make_event(4)
    url = f"/api/v1/tournaments/{event.slug}/money/"
    directed, anyone = client_for(director), APIClient()
    entries = list(Entry.objects.filter(tournament=event).order_by("pk"))
    check_answer(schema, anyone.get(url))  # nothing written yet
    check_answer(
        schema,
        directed.put(
            url + "pools/main/",
            {"name": "Main", "fee": "25.00", "rake_percent": "10", "preset": "winner_takes_all"},
            format="json",
        ),
    )
    check_answer(
        schema,
        directed.put(
            url + "pools/side/",
            {"name": "Side", "side": True, "fee": "5.00", "table": ["100"]},
            format="json",
        ),
    )
    check_answer(
        schema,
        directed.put(
            url + "pools/side/entrants/",
            {"entries": [e.pk for e in entries[:2]]},
            format="json",
        ),
    )
    check_answer(
        schema,
        directed.post(
            url + "payments/",
            {"player": entries[0].player_id, "amount": "30.00", "method": "cash"},
            format="json",
        ),
    )
    check_answer(
        schema, directed.post(url + "splits/", {"entries": [entries[0].pk]}, format="json")
    )
    check_answer(schema, directed.delete(url + "splits/"))
    check_answer(schema, anyone.get(url + "calcutta/"))  # not set up yet
    check_answer(
        schema, directed.put(url + "calcutta/", {"preset": "winner_takes_all"}, format="json")
    )
    lot = check_answer(
        schema,
        directed.post(url + "calcutta/lots/", {"entries": [entries[0].pk]}, format="json"),
    )
    lot_id = lot["calcutta"]["lots"][0]["id"]
    sold = check_answer(
        schema,
        directed.put(
            url + f"calcutta/lots/{lot_id}/sale/",
            {"price": "10", "buyers": [{"player": entries[1].player_id, "percent": "100"}]},
            format="json",
        ),
    )
    assert sold["calcutta"]["lots"][0]["owners"] == [{"name": "P02", "percent": "100.00"}]
    played(event, win)
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)

    money = check_answer(schema, directed.get(url))
    assert {"people", "settlement", "splits", "pools", "payouts", "calcutta"} <= set(money)
    stranger = check_answer(schema, client_for(make_user("stranger")).get(url))
    assert stranger["mine"] is None and "people" not in stranger
    calcutta = check_answer(schema, anyone.get(url + "calcutta/"))
    assert calcutta["set_up"] is True and calcutta["pool"] == "10.00"


def test_master_points_answer_as_declared(
    schema, make_event, director, client_for, win, actor, played
):
    event = make_event(4, match_lengths={"default": 9})
    directed, anyone = client_for(director), APIClient()
    club = f"/api/v1/clubs/{event.club.slug}/master-points/"
    points = f"/api/v1/tournaments/{event.slug}/money/master-points/"
    check_answer(schema, anyone.get(points))  # no setting yet: nulls
    check_answer(schema, anyone.get(club + "table/"))  # no table yet: nulls
    brackets = [{"min_players": 2, "max_players": None, "points": ["10", "6", "3", "3"]}]
    table = check_answer(
        schema,
        directed.put(club + "table/", {"per_match_won": "1", "brackets": brackets}, format="json"),
    )
    assert table["table"]["brackets"][0]["points"] == ["10.00", "6.00", "3.00", "3.00"]
    check_answer(schema, directed.put(club + "season/", {"month": 9, "day": 1}, format="json"))
    check_answer(
        schema,
        directed.put(points, {"formula": "club-table", "event_weight": "1"}, format="json"),
    )
    played(event, win)
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    awarded = check_answer(schema, anyone.get(points))
    assert awarded["club_table_version"] is not None and awarded["points"]
    board = check_answer(schema, anyone.get(club))
    assert board[0]["rank"] == 1 and board[0]["events"][0]["tournament"] == event.slug
