"""``core.errors.N_``: an English message that is translated only when shown.

Pure (no database): the text equals its English sentence for comparison, hashing and
JSON, and ``str()`` asks the installed translator for the template, then fills it in.
"""

from __future__ import annotations

import json

from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from core.errors import N_, RuleViolation, Text

names = st.text(alphabet=st.characters(blacklist_characters="%"), max_size=30)


@given(name=names, count=st.integers())
def test_a_text_is_its_english_sentence(name, count):
    text = N_("Player %(name)s gave %(count)s rolls.", name=name, count=count)
    english = f"Player {name} gave {count} rolls."
    assert isinstance(text, Text) and text == english and hash(text) == hash(english)
    assert json.loads(json.dumps({"detail": text})) == {"detail": english}
    assert text.template == "Player %(name)s gave %(count)s rolls."
    assert text.params == {"name": name, "count": count}


@given(slug=names)
def test_shown_in_the_active_language_with_its_values(slug):
    error = RuleViolation("slug_taken", N_("A club with the slug '%(slug)s' exists.", slug=slug))
    with translation.override("de"):
        assert str(error.message) == f"Ein Club mit dem Kürzel '{slug}' existiert bereits."
    with translation.override("en"):
        assert str(error.message) == f"A club with the slug '{slug}' exists."
    assert error.message == f"A club with the slug '{slug}' exists."  # whatever is active


def test_a_message_without_values_and_one_not_in_the_catalog():
    with translation.override("fr"):
        assert str(N_("Saved.")) == "Enregistré."
        assert str(N_("Not in any catalog: %(x)s.", x=1)) == "Not in any catalog: 1."
