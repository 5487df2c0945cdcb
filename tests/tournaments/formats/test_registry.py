"""The format registry: every registered format declares every part the code asks for.

A new format module that forgets a part (its stages, its pairer, its odds model...)
fails here before any service meets it.
"""

from __future__ import annotations

import pytest

from tournaments.formats import registry
from tournaments.formats.bracket_graph import BracketGraph
from tournaments.formats.errors import FormatError
from tournaments.formats.registry import FormatKind, GraphOptions, OddsModel
from tournaments.formats.standings import TieBreak
from tournaments.formats.swiss import SwissPlayer
from tournaments.models import StageKind, Tournament, TournamentFormat

SPECS = registry.specs()
STAGE_KINDS = set(StageKind.values)
ROUND_ENGINES = {"swiss", "round_robin"}


def test_the_model_stores_exactly_the_registered_formats_in_the_same_order():
    assert [s.key for s in SPECS] == list(TournamentFormat.values)
    assert [s.label for s in SPECS] == [str(label) for label in TournamentFormat.labels]


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_every_format_declares_every_part(spec):
    assert spec.label and spec.lengths_help
    assert spec.stages and all(kind in STAGE_KINDS and legend for kind, legend in spec.stages)
    assert all(hasattr(Tournament, option) for option in spec.options)
    assert set(spec.option_defaults) <= set(spec.options)
    assert spec.tie_breaks and set(spec.tie_breaks) <= {t.value for t in TieBreak}
    assert set(spec.example) <= set(spec.options)
    if spec.preview is not None:
        assert set(spec.preview) <= set(spec.options)
    if spec.kind == FormatKind.BRACKET:
        assert spec.graph is not None and spec.rounds is None
        graph = spec.graph(8, GraphOptions())
        assert isinstance(graph, BracketGraph) and graph.matches
    else:
        assert spec.rounds in ROUND_ENGINES
        assert not spec.drop_map
    if spec.odds == OddsModel.RECORDS:
        assert spec.simulate is not None
    if spec.playoff_field is not None:
        assert spec.rounds == "swiss" and spec.graph is not None
        assert "playoff" in dict(spec.stages) and "playoff_qualifiers" in spec.options
    options = {**spec.option_defaults, **spec.example}
    assert 1 <= spec.group_count(16, options) <= 8  # groups of two players at least
    if spec.preview is not None and spec.kind == FormatKind.ROUNDS:
        assert spec.preview_rounds is not None  # the preview shows its rounds
    if spec.preview_rounds is not None:
        assert spec.kind == FormatKind.ROUNDS and spec.preview_rounds(options) >= 1
    if spec.rounds == "swiss":
        assert spec.pair is not None and spec.finished is not None
        players = [SwissPlayer(i, 0) for i in range(4)]
        pairing = spec.pair(players, spec.example)
        assert len(pairing.pairs) == 2
        assert not spec.finished(0, players, spec.example)


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_every_format_accepts_its_example_and_names_its_options(spec):
    spec.check({"format": spec.key, **spec.example})


def test_an_option_of_another_format_is_refused_naming_the_field():
    with pytest.raises(FormatError) as found:
        registry.check_foreign_option(
            {"format": "double_elimination", "consolation_from": [1]}, "consolation_from"
        )
    assert found.value.code == "consolation_from_needs_single_elimination"
    assert found.value.field == "consolation_from"


def test_an_unknown_format_is_refused_naming_the_field():
    with pytest.raises(FormatError) as found:
        registry.spec("knockout")
    assert found.value.code == "format_unknown" and found.value.field == "format"


def test_a_format_is_registered_once():
    with pytest.raises(ValueError, match="twice"):
        registry.register(SPECS[0])


def test_round_robin_plays_in_its_groups_and_the_others_in_one_field():
    assert registry.spec("round_robin").group_count(12, {"groups": 3}) == 3
    assert registry.spec("swiss").group_count(12, {"groups": 3}) == 1  # not its option


def test_a_swiss_preview_shows_its_rounds_and_a_bracket_draws_its_own():
    assert registry.spec("swiss").preview_rounds({"swiss_rounds": 6}) == 6
    assert registry.spec("single_elimination").preview_rounds is None
