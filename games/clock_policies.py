"""Whether a match may use a clock, and how (docs/clocks.md, "Policies").

The policy is an event's (and its round's) setting, but ``games`` knows nothing of
events. So an app that groups matches registers a *provider* in its
``wiring.py`` (tournaments does: ``tournaments/clocks.py``); the clock service
asks it for a match and falls back to :data:`DEFAULT_POLICY` for a match of no event
(clocks allowed, the USBGF preset, a flag fall loses). Registering a provider under a
name a second time replaces it, as :mod:`core.listeners` does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.rules.clock import MINUTE, FlagRule, Preset

REQUIRED = "required"
ALLOWED = "allowed"
NONE = "none"


@dataclass(frozen=True)
class MatchClockPolicy:
    """``policy``: required, allowed or none; the preset a clock starts with by
    default; what a flag fall does; and ``event``: who set it (empty: no event)."""

    policy: str = ALLOWED
    preset: Preset = Preset.USBGF
    flag_rule: FlagRule = FlagRule.LOSS
    overtime_ms: int = MINUTE
    event: str = ""


DEFAULT_POLICY = MatchClockPolicy()

Provider = Callable[[int], MatchClockPolicy | None]
"""``provider(match_id)``: the match's policy, or None when the match is not its."""

_providers: dict[str, Provider] = {}


def register_clock_policy(name: str, provider: Provider) -> None:
    _providers[name] = provider


def clock_policy_of(match_id: int) -> MatchClockPolicy:
    """The first registered provider's answer for the match, else the default."""
    for provider in _providers.values():
        policy = provider(match_id)
        if policy is not None:
            return policy
    return DEFAULT_POLICY
