"""``seed_demo`` says where the demo answers: ``make run`` passes its HOST and PORT."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_the_closing_line_names_the_address_make_run_serves():
    out = StringIO()
    call_command("seed_demo", "--url", "http://0.0.0.0:8123/", stdout=out)
    assert "Demo ready: http://0.0.0.0:8123/ - log in" in out.getvalue()
    assert "8000" not in out.getvalue()


def test_without_an_address_it_names_the_default_one():
    out = StringIO()
    call_command("seed_demo", stdout=out)
    assert "Demo ready: http://127.0.0.1:8000/ - log in" in out.getvalue()
