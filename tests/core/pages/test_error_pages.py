"""Error pages say what happened in plain words."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_missing_page_has_a_friendly_404(client, settings):
    settings.DEBUG = False
    response = client.get("/matches/999999/")
    assert response.status_code == 404
    assert b"Back to the clubs" in response.content
