"""The tournaments' jobs against the schema that types them (issue #30): a paired round,
a redraw (and one refused: a failed job), a large event's drop map, a round call's
notices and the odds, each real answer (the 202 that starts it, and the job read back)
validated against ``Job``, the union of the per-kind jobs, closed to undeclared keys
(``tests.openapi_answers``), so ``tournaments.api.job_shapes`` and the handlers in
``tournaments.jobs`` cannot drift apart."""

from __future__ import annotations

import pytest

from core.models import Job
from tests.openapi_answers import check_answer, closed_live_schema
from tournaments.models import Pairing, PairingStatus
from tournaments.services import draws

pytestmark = pytest.mark.django_db

API = "/api/v1/tournaments/"


@pytest.fixture
def schema():
    return closed_live_schema()


def started_and_done(schema, client, response, kind: str) -> dict:
    """The 202's job and the same job read back, both held to the schema: done."""
    accepted = check_answer(schema, response)
    assert response.status_code == 202 and accepted["kind"] == kind
    assert response["Location"] == f"/api/v1/jobs/{accepted['id']}/"
    done = check_answer(schema, client.get(response["Location"]))
    assert done["kind"] == kind and done["status"] == "succeeded", done
    return done


def test_a_swiss_rounds_jobs_answer_as_declared(
    schema,
    make_event,
    win,
    client_for,
    director,
    admin_user,
    django_capture_on_commit_callbacks,
):
    directed = client_for(director)
    event = make_event(4, format="swiss", swiss_rounds=2)
    with django_capture_on_commit_callbacks(execute=True):  # the results start the odds job
        for p in Pairing.objects.filter(tournament=event, status=PairingStatus.READY):
            win(event, p.key, min(p.entry1.seed, p.entry2.seed))
    with django_capture_on_commit_callbacks(execute=True):
        asked = directed.post(f"{API}{event.slug}/rounds/next/", {}, format="json")
    paired = started_and_done(schema, directed, asked, "tournaments.pair_round")
    assert paired["params"] == {"tournament": event.pk, "round": 2}
    assert paired["result"]["round"] == 2 and paired["result"]["pairings"] == 2

    odds = Job.objects.filter(kind="tournaments.odds").first()  # nobody's: admins read it
    read = check_answer(schema, client_for(admin_user).get(f"/api/v1/jobs/{odds.pk}/"))
    assert read["status"] == "succeeded" and read["params"] == {"tournament": event.pk}
    assert read["result"]["snapshot"] and read["result"]["method"] == "swiss_approximation"

    with django_capture_on_commit_callbacks(execute=True):
        called = directed.post(f"{API}{event.slug}/rounds/2/call/", {}, format="json")
    assert called.status_code == 201, called.json()
    notify = check_answer(schema, directed.get(f"/api/v1/jobs/{called.json()[0]['notify_job']}/"))
    assert notify["kind"] == "tournaments.notify_call" and notify["status"] == "succeeded"
    assert notify["result"]["no_address"] == 4  # the players have no e-mail address


def test_a_redraw_and_a_large_drop_map_answer_as_declared(
    schema, make_event, win, client_for, director, django_capture_on_commit_callbacks, monkeypatch
):
    directed = client_for(director)
    event = make_event(8)
    with django_capture_on_commit_callbacks(execute=True):
        asked = directed.post(f"{API}{event.slug}/redraw/", {"random_seed": 7}, format="json")
    redrawn = started_and_done(schema, directed, asked, "tournaments.redraw")
    assert redrawn["params"] == {"tournament": event.pk, "random_seed": 7}
    assert redrawn["result"] == {"entries": 8, "voided_matches": 4, "random_seed": 7}

    monkeypatch.setattr(draws, "LARGE_EVENT", 4)  # 8 entries: a large event, a job
    with django_capture_on_commit_callbacks(execute=True):
        asked = directed.get(f"{API}{event.slug}/drop-map/")
    mapped = started_and_done(schema, directed, asked, "tournaments.drop_map")
    assert mapped["params"]["format"] == "single_elimination" and mapped["params"]["entries"] == 8
    assert mapped["result"]["entries"] == 8 and mapped["result"]["matches"] == 7

    event.refresh_from_db()
    pairing = Pairing.objects.filter(tournament=event, status=PairingStatus.READY).first()
    win(event, pairing.key, min(pairing.entry1.seed, pairing.entry2.seed))
    with django_capture_on_commit_callbacks(execute=True):
        late = directed.post(f"{API}{event.slug}/redraw/", {}, format="json")
    job = check_answer(schema, late)
    failed = check_answer(schema, directed.get(f"/api/v1/jobs/{job['id']}/"))
    assert failed["status"] == "failed" and failed["result"] is None
    assert failed["error"]["code"] == "bracket_started"
