"""The money pages' tests share the director's signed-in browser (Django's test client)."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.fixture
def browser(director):
    client = Client()
    client.force_login(director)
    return client
