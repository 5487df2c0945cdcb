"""The federation exports: every export the model offers is declared once, with every part.

A body added to ``FederationExport`` without its declaration (or declared twice, or
with a part missing) fails here before a director asks for its file.
"""

from __future__ import annotations

import pytest

from tournaments.federation import bodies, catalog
from tournaments.federation.models import FederationExport
from tournaments.federation.services import Export, Options


def test_every_export_the_model_offers_is_declared_once_in_its_order():
    assert [b.key for b in bodies.bodies()] == list(FederationExport.values)
    assert bodies.bodies() == catalog.BODIES
    with pytest.raises(ValueError, match="twice"):
        bodies.register(catalog.BODIES[:1])


@pytest.mark.parametrize("declared", catalog.BODIES, ids=lambda b: b.key)
def test_every_declaration_has_every_part(declared):
    assert callable(declared.build)
    declared.check_options(Options())  # the default choices are accepted
    built = Export(declared.key, "f.csv", "text/csv", b"", {"qualifies": True, "checks": []})
    assert all(isinstance(line, str) for line in declared.mail_lines(built))


def test_the_abt_refuses_a_bad_division_before_reading_the_event():
    from core.errors import BoxcarsError

    with pytest.raises(BoxcarsError) as refused:
        bodies.body("abt").check_options(Options(division="galactic"))
    assert refused.value.field == "division"
