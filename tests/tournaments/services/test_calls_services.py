"""Check-in, waitlist, round calls and their notices, late penalties (the services)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.utils import timezone

from core.models import Job
from games import score_links
from games.models import Game, Match, MatchStatus
from games.rules.errors import ConflictError, NotAllowed
from games.services import clubs as club_services
from games.services.actors import actor_for_user
from games.services.match_records import GameInput, stored_state
from games.services.score_entry import record_game
from tests.factories import confirm_address
from tournaments.call_notices import send_call_notices
from tournaments.models import CallNotice, Entry, EntryStatus, Pairing, PairingStatus, RoundCall
from tournaments.services import calls, check_in, late_penalties
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


def ready_pairings(event):
    return list(
        Pairing.objects.filter(tournament=event, status=PairingStatus.READY)
        .exclude(match=None)
        .select_related("match__player1", "match__player2", "entry1", "entry2")
        .order_by("slot")
    )


def with_emails(event):
    for entry in Entry.objects.filter(tournament=event).select_related("player"):
        entry.player.email = f"{entry.player.slug}@example.org"
        entry.player.save()
        confirm_address(event.club, entry.player.email)


# --- waitlist and check-in ---------------------------------------------------------------


def test_capped_field_waitlists_then_moves_up_on_withdrawal(make_event, actor):
    event = make_event(0, start=False)
    event_services.configure_tournament(actor=actor, tournament_id=event.pk, capacity=2)
    players = [
        club_services.create_player(display_name=f"W{i}", clubs=[event.club]) for i in range(4)
    ]
    entries = [
        entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=p.pk)
        for p in players
    ]
    assert [e.status for e in entries] == ["active", "active", "waitlisted", "waitlisted"]
    assert [e.waitlist_position for e in entries] == [None, None, 1, 2]

    entry_services.withdraw_entry(actor=actor, tournament_id=event.pk, entry_id=entries[0].pk)

    third, fourth = Entry.objects.get(pk=entries[2].pk), Entry.objects.get(pk=entries[3].pk)
    assert third.status == EntryStatus.ACTIVE and third.waitlist_position is None
    assert fourth.status == EntryStatus.WAITLISTED and fourth.waitlist_position == 1


def test_player_checks_in_with_their_link_and_not_someone_elses(make_event):
    event = make_event(2, start=False)
    event_services.configure_tournament(
        actor=actor_for_user(event.created_by), tournament_id=event.pk, check_in_required=True
    )
    mine, other = Entry.objects.filter(tournament=event).order_by("pk")
    anonymous = actor_for_user(None)
    entry = check_in.check_in_entry(
        actor=anonymous,
        tournament_id=event.pk,
        entry_id=mine.pk,
        token=check_in.check_in_token(mine),
    )
    assert entry.checked_in_at is not None
    with pytest.raises(NotAllowed):
        check_in.check_in_entry(
            actor=anonymous,
            tournament_id=event.pk,
            entry_id=other.pk,
            token=check_in.check_in_token(mine),
        )
    with pytest.raises(NotAllowed):
        check_in.check_in_entry(actor=anonymous, tournament_id=event.pk, entry_id=other.pk)


def test_draw_waits_for_no_shows_then_drops_them_and_the_checked_in_waitlist_moves_up(
    make_event, actor
):
    event = make_event(3, start=False)
    event_services.configure_tournament(
        actor=actor, tournament_id=event.pk, check_in_required=True, capacity=3
    )
    late_comer = club_services.create_player(display_name="Late", clubs=[event.club])
    waiting = entry_services.register_entry(
        actor=actor, tournament_id=event.pk, player_id=late_comer.pk
    )
    assert waiting.status == EntryStatus.WAITLISTED
    first, second, absent = Entry.objects.filter(tournament=event, status="active").order_by("pk")
    for entry in (first, second, waiting):
        check_in.check_in_entry(actor=actor, tournament_id=event.pk, entry_id=entry.pk)

    with pytest.raises(ConflictError) as refused:
        entry_services.start_tournament(actor=actor, tournament_id=event.pk)
    assert refused.value.code == "no_shows_not_dropped"

    dropped = check_in.drop_no_shows(actor=actor, tournament_id=event.pk)

    assert [e.pk for e in dropped] == [absent.pk]
    assert Entry.objects.get(pk=absent.pk).status == EntryStatus.WITHDRAWN
    assert Entry.objects.get(pk=waiting.pk).status == EntryStatus.ACTIVE
    entry_services.start_tournament(actor=actor, tournament_id=event.pk)


# --- calling a round ---------------------------------------------------------------------


def test_call_sends_one_email_per_player_with_table_and_link(
    make_event, actor, django_capture_on_commit_callbacks
):
    event = make_event(4)
    with_emails(event)
    with django_capture_on_commit_callbacks(execute=True):
        (call,) = calls.call_round(actor=actor, tournament_id=event.pk, round_number=1)

    pairings = ready_pairings(event)
    assert len(mail.outbox) == 4
    by_address = {m.to[0]: m for m in mail.outbox}
    for pairing in pairings:
        match = pairing.match
        for player, opponent in ((match.player1, match.player2), (match.player2, match.player1)):
            message = by_address[player.email]
            assert f"Table: {match.table}" in message.body
            assert f"Opponent: {opponent.display_name}" in message.body
            assert f"Length: {match.length} points" in message.body
            link = re.search(r"^http://localhost:8000/score/(\S+)/$", str(message.body), re.M)
            assert link is not None, message.body
            assert score_links.read_token(link.group(1)) == (match.pk, player.pk)
            assert isinstance(message, EmailMultiAlternatives)
            html = str(message.alternatives[0][0])
            assert opponent.display_name in html
    assert CallNotice.objects.filter(call=call, sent_at__isnull=False).count() == 4
    job = Job.objects.get(kind="tournaments.notify_call")
    assert job.result["sent"] == 4


def test_a_retried_call_sends_no_duplicates(make_event, actor, django_capture_on_commit_callbacks):
    event = make_event(4)
    with_emails(event)
    with django_capture_on_commit_callbacks(execute=True):
        (call,) = calls.call_round(actor=actor, tournament_id=event.pk, round_number=1)
    assert len(mail.outbox) == 4

    again = send_call_notices(call_id=call.pk)  # the job delivered a second time

    assert again["skipped"] == 4 and again["sent"] == 0
    assert len(mail.outbox) == 4
    with pytest.raises(ConflictError) as refused:
        calls.call_round(actor=actor, tournament_id=event.pk, round_number=1)
    assert refused.value.code == "round_already_called"


def test_only_directors_call_and_only_ready_rounds(make_event, actor, alice_user):
    event = make_event(4)
    with pytest.raises(NotAllowed):
        calls.call_round(actor=actor_for_user(alice_user), tournament_id=event.pk, round_number=1)
    with pytest.raises(ConflictError) as refused:
        calls.call_round(actor=actor, tournament_id=event.pk, round_number=2)
    assert refused.value.code == "round_not_ready"


def test_next_round_is_called_automatically_when_the_previous_ends(
    make_event, actor, win, django_capture_on_commit_callbacks
):
    event = make_event(4)
    event_services.configure_tournament(actor=actor, tournament_id=event.pk, auto_call_rounds=True)
    with_emails(event)
    calls.call_round(actor=actor, tournament_id=event.pk, round_number=1)
    win(event, "main-r1-m1", 1)
    assert RoundCall.objects.filter(round__number=2).count() == 0  # round 1 not over yet
    with django_capture_on_commit_callbacks(execute=True):
        win(event, "main-r1-m2", 2)
    (final_call,) = RoundCall.objects.filter(round__number=2)
    assert final_call.automatic and final_call.called_by is None
    assert len([m for m in mail.outbox if "round 2" in m.subject]) == 2


# --- late penalties -----------------------------------------------------------------------


def called(event, actor, minutes_ago: int):
    (call,) = calls.call_round(actor=actor, tournament_id=event.pk, round_number=1)
    RoundCall.objects.filter(pk=call.pk).update(
        called_at=timezone.now() - timedelta(minutes=minutes_ago, seconds=5)
    )
    return ready_pairings(event)[0]


def test_late_penalty_gives_the_opponent_points_on_the_score_sheet(make_event, actor):
    event = make_event(2, match_lengths={"default": 7})
    pairing = called(event, actor, minutes_ago=11)
    late, opponent = pairing.entry1, pairing.entry2

    penalty = late_penalties.apply_late_penalty(
        actor=actor, tournament_id=event.pk, match_id=pairing.match_id, late_entry_id=late.pk
    )

    assert (penalty.points, penalty.minutes_late, penalty.match_lost) == (2, 11, False)
    match = Match.objects.get(pk=pairing.match_id)
    side = match.side_of(opponent.player)
    assert (match.score1, match.score2)[side] == 2
    (row,) = Game.objects.filter(match=match)
    assert row.ending == "late_penalty" and row.winner_id == opponent.player_id and row.points == 2
    with pytest.raises(ConflictError) as refused:  # pressed again at the same lateness
        late_penalties.apply_late_penalty(
            actor=actor, tournament_id=event.pk, match_id=pairing.match_id, late_entry_id=late.pk
        )
    assert refused.value.code == "no_penalty_due"


def test_late_beyond_half_the_length_loses_the_match(make_event, actor):
    event = make_event(2, match_lengths={"default": 5})
    pairing = called(event, actor, minutes_ago=15)  # 3 points > 2.5

    penalty = late_penalties.apply_late_penalty(
        actor=actor,
        tournament_id=event.pk,
        match_id=pairing.match_id,
        late_entry_id=pairing.entry1_id,
    )

    assert penalty.match_lost
    match = Match.objects.get(pk=pairing.match_id)
    assert match.status == MatchStatus.FORFEIT and match.winner_id == pairing.entry2.player_id


def test_no_penalty_before_the_round_is_called_or_five_minutes_pass(make_event, actor):
    event = make_event(2)
    pairing = ready_pairings(event)[0]
    with pytest.raises(ConflictError) as refused:
        late_penalties.apply_late_penalty(
            actor=actor,
            tournament_id=event.pk,
            match_id=pairing.match_id,
            late_entry_id=pairing.entry1_id,
        )
    assert refused.value.code == "round_not_called"
    called(event, actor, minutes_ago=4)
    with pytest.raises(ConflictError) as refused:
        late_penalties.apply_late_penalty(
            actor=actor,
            tournament_id=event.pk,
            match_id=pairing.match_id,
            late_entry_id=pairing.entry1_id,
        )
    assert refused.value.code == "no_penalty_due"


def test_penalty_points_can_finish_the_match_and_advance_the_bracket(make_event, actor):
    event = make_event(2, match_lengths={"default": 1})
    pairing = called(event, actor, minutes_ago=5)
    # a 1-point match: the first penalty point is beyond half: lost, by forfeit
    late_penalties.apply_late_penalty(
        actor=actor,
        tournament_id=event.pk,
        match_id=pairing.match_id,
        late_entry_id=pairing.entry1_id,
    )
    pairing.refresh_from_db()
    assert pairing.winner_id == pairing.entry2_id and pairing.forfeit


def test_penalty_points_count_with_the_games_won(make_event, actor):
    event = make_event(2, match_lengths={"default": 5})
    pairing = called(event, actor, minutes_ago=5)
    match = pairing.match
    record_game(
        actor=actor,
        match_id=match.pk,
        game=GameInput(winner_id=match.player1_id, cube=2, cube_owner="player2", level="gammon"),
    )
    late = pairing.entry1 if pairing.entry1.player_id == match.player2_id else pairing.entry2
    late_penalties.apply_late_penalty(
        actor=actor, tournament_id=event.pk, match_id=match.pk, late_entry_id=late.pk
    )
    state = stored_state(Match.objects.get(pk=match.pk))
    assert state.score == (5, 0)  # 4 from the gammon, 1 penalty: the match is over
    assert state.finished


def test_call_pushes_once_to_players_who_allowed_it_and_forgets_gone_devices(
    make_event, actor, settings, monkeypatch, make_user
):
    import pywebpush

    from tournaments.models import PushSubscription

    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = "public", "private"
    event = make_event(2)
    one, two = [e.player for e in Entry.objects.filter(tournament=event).select_related("player")]
    for player, name in ((one, "one"), (two, "two")):
        player.user = make_user(f"push-{name}")
        player.save()
        PushSubscription.objects.create(
            user=player.user,
            endpoint=f"https://fcm.googleapis.com/fcm/send/{name}",
            p256dh="k",
            auth="a",
        )
    sent = []

    class Gone:
        status_code = 410

    def fake_webpush(subscription_info, data, **kwargs):
        if subscription_info["endpoint"].endswith("/two"):
            raise pywebpush.WebPushException("gone", response=Gone())
        sent.append((subscription_info["endpoint"], data))

    monkeypatch.setattr(pywebpush, "webpush", fake_webpush)
    (call,) = calls.call_round(actor=actor, tournament_id=event.pk, round_number=1)

    counts = send_call_notices(call_id=call.pk)
    again = send_call_notices(call_id=call.pk)

    assert counts["pushed"] == 1 and again["pushed"] == 0
    assert len(sent) == 1 and "is called" in sent[0][1]
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        "https://fcm.googleapis.com/fcm/send/one"
    ]
