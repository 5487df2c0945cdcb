"""The card's drop convention (``chouette.rules.drops``): the cube offered, halved."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chouette.rules.drops import cube_before_drop
from games.rules.errors import RuleViolation


@given(st.integers(min_value=1, max_value=20))
def test_every_offered_power_of_two_is_the_cube_before_the_double(n):
    assert cube_before_drop(2**n, field="cube") == 2 ** (n - 1)


@pytest.mark.parametrize("offered", [-2, 0, 1, 3, 6, 12])
def test_an_offer_no_double_can_make_is_refused_naming_the_field(offered):
    with pytest.raises(RuleViolation) as refused:
        cube_before_drop(offered, field="members[1].cube")
    assert (refused.value.code, refused.value.field) == (
        "drop_needs_cube_offered",
        "members[1].cube",
    )
