"""The tournament options: every registered option declares every part the code asks for.

An option declared without a part (its bounds, its choices, its shape, its words) or
that the model, the formats, the API or the pages disagree with fails here before a
director meets it. The create page's words come from the declarations, translated.
"""

from __future__ import annotations

import pytest
from django.db.models import Field
from django.test import Client
from django.utils.functional import Promise
from django.utils.html import escape
from django.utils.translation import override

from tournaments import option_catalog
from tournaments import options as tournament_options
from tournaments.api import config_shapes
from tournaments.api.serializers import ConfigSerializer, CreateSerializer, TournamentSerializer
from tournaments.event_settings_form import EventSettingsForm
from tournaments.formats import registry as format_registry
from tournaments.forms import NewTournamentForm
from tournaments.models import Tournament
from tournaments.options import OptionKind, TournamentOption

OPTIONS = tournament_options.options()


def test_the_registry_holds_the_catalog_once_in_its_order():
    assert OPTIONS == option_catalog.OPTIONS
    assert tournament_options.groups() == option_catalog.GROUPS
    assert len(set(tournament_options.names())) == len(OPTIONS)
    with pytest.raises(ValueError, match="twice"):
        tournament_options.register((), OPTIONS[:1])


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: o.name)
def test_every_option_declares_every_part(option):
    field = Tournament._meta.get_field(option.name)  # a column of the event
    assert isinstance(field, Field) and field.concrete and not field.primary_key
    if option.kind == OptionKind.INT:
        assert option.minimum is not None and option.maximum is not None
        assert option.minimum <= option.maximum
        if option.initial is not None:
            assert option.minimum <= option.initial <= option.maximum
    if option.kind == OptionKind.CHOICE:
        assert option.choices is not None
        values = [value for value, _ in option.choices()]
        assert values and len(values) == len(set(values))
        page = [value for value, _ in (option.page_choices or option.choices)()]
        assert set(page) == set(values)  # the page offers what the API takes
        if option.initial is not None:
            assert option.initial in values
    if option.shape:
        assert callable(getattr(config_shapes, option.shape))
    if option.group:
        assert option.group in {g.key for g in tournament_options.groups()}
        assert format_registry_readers(option.name), "a format option no format reads"
    for words in (option.label, option.help):
        if words:  # the page's words translate
            assert isinstance(words, Promise)


def format_registry_readers(name: str) -> list[str]:
    return tournament_options.formats_reading(
        name, {s.key: s.options for s in format_registry.specs()}
    )


def test_every_format_reads_only_declared_options_each_shown_in_a_group():
    declared = set(tournament_options.names())
    grouped = {o.name for o in OPTIONS if o.group}
    for spec in format_registry.specs():
        assert set(spec.options) <= declared, spec.key
        assert set(spec.options) <= grouped, spec.key  # the create page shows them


def test_the_api_takes_exactly_the_declared_options_and_answers_each():
    fields = ConfigSerializer().fields
    names: list[str] = list(fields.keys())
    assert names == list(tournament_options.names())
    created: list[str] = list(CreateSerializer().fields.keys())
    assert [f for f in created if f not in names] == ["club", "slug"]
    for option in OPTIONS:
        assert fields[option.name].required == option.required
        assert getattr(fields[option.name], "allow_null", False) == option.nullable
    assert set(tournament_options.names()) <= set(TournamentSerializer.Meta.fields)


def test_the_pages_show_a_field_per_option_with_a_label():
    create, settings = NewTournamentForm(), EventSettingsForm()
    for option in OPTIONS:
        if (option.group and option.label) or option.page == "event":
            assert create.fields[option.name].label == option.label
        if option.page == "settings":
            assert settings.fields[option.name].label == option.label
            assert create.fields.get(option.name) is None  # the settings form's, shown beside


def test_a_declaration_missing_a_part_is_refused():
    with pytest.raises(ValueError, match="bounds"):
        TournamentOption("group_size", OptionKind.INT, label="Group size", group="groups")
    with pytest.raises(ValueError, match="choices"):
        TournamentOption("pairing", OptionKind.CHOICE)
    with pytest.raises(ValueError, match="shape"):
        TournamentOption("pools", OptionKind.ROUNDS)
    with pytest.raises(ValueError, match="label"):
        TournamentOption("group_size", OptionKind.BOOL, group="groups")


def test_only_the_declared_any_time_options_change_after_the_start():
    assert tournament_options.any_time() == {
        "name",
        "starts_on",
        "ends_on",
        "prize_order",
        "auto_call_rounds",
        "clock_policy",
        "clock_rounds",
        "clock_preset",
        "clock_flag_rule",
        "clock_overtime_ms",
    }


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["de", "fr", "da"])
def test_the_create_page_shows_the_declared_words_translated(director, club, language):
    desk = Client()
    desk.force_login(director)
    html = desk.get(
        f"/tournaments/new/{club.slug}/", headers={"accept-language": language}
    ).content.decode()
    words = [
        tournament_options.option("feed_orders").help,  # lazy, with the orders put in
        tournament_options.groups()[0].legend,
        tournament_options.option("playoff_qualifiers").label,
        tournament_options.option("check_in_required").label,  # the settings form's
    ]
    with override("en"):
        english = [str(w) for w in words]
    assert english[0].startswith("How losers drop in")
    with override(language):
        translated = [str(w) for w in words]
    for said, shown in zip(english, translated, strict=True):
        assert shown != said, f"{said!r} is not translated into {language}"
        assert escape(shown) in html
        assert escape(said) not in html
