"""The API's token check (knox's, in one query) keeps knox's behaviour: expired tokens
are refused and swept, revoking works, and the actor's player comes with the user."""

from __future__ import annotations

from datetime import timedelta

import pytest
from knox.models import AuthToken
from rest_framework.test import APIClient

from games.api.authentication import TokenAuthentication
from tests.factories import token_for

pytestmark = pytest.mark.django_db


def _client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_a_token_is_checked_in_one_query_with_the_users_player(
    alice_user, alice, django_assert_num_queries
):
    _, token = token_for(alice_user)
    with django_assert_num_queries(1):
        user, _ = TokenAuthentication().authenticate_credentials(token.encode())
    with django_assert_num_queries(0):
        assert user.player == alice


def test_an_expired_token_is_refused_and_deleted(alice_user):
    instance, token = token_for(alice_user, expiry=timedelta(seconds=-1))
    response = _client(token).post("/api/v1/clubs/", {"name": "Late Club"}, format="json")
    assert response.status_code == 401
    assert not AuthToken.objects.filter(pk=instance.pk).exists()


def test_using_a_token_sweeps_the_users_other_expired_tokens(alice_user):
    token_for(alice_user, expiry=timedelta(seconds=-1))
    current, token = token_for(alice_user)
    response = _client(token).post("/api/v1/clubs/", {"name": "Swept Club"}, format="json")
    assert response.status_code == 201
    assert list(AuthToken.objects.filter(user=alice_user)) == [current]


def test_revoking_a_token_ends_it(alice_user):
    _, token = token_for(alice_user)
    client = _client(token)
    assert client.post("/api/v1/auth/token/revoke/").status_code == 204
    assert client.post("/api/v1/clubs/", {"name": "Gone"}, format="json").status_code == 401
