"""Every option of an event, declared once (``tournaments.options`` says what each part is).

``tournaments/wiring.py`` registers :data:`GROUPS` and :data:`OPTIONS`. The order of
:data:`OPTIONS` is the API's (the create and change bodies in the schema); a group of
the create page shows its fields in that order, check boxes last. The page's words are
lazy translations (``locale/*/LC_MESSAGES/django.po``); ``api_help`` is the schema's.
"""

from __future__ import annotations

from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy

from games import variant_names
from games.rules import limits, variants
from games.rules.clock import FlagRule, Preset
from tournaments.formats.elimination import FeedOrder
from tournaments.models import ClockPolicy, SeedingMethod, TournamentFormat
from tournaments.options import OptionGroup, OptionKind, TournamentOption

#: The clock policies as the pages name them (the API names them as the model does).
POLICY_CHOICES = (
    (ClockPolicy.REQUIRED.value, gettext_lazy("Clocks required")),
    (ClockPolicy.ALLOWED.value, gettext_lazy("Clocks allowed")),
    (ClockPolicy.NONE.value, gettext_lazy("No clocks")),
)


def _feed_orders_help() -> str:
    return gettext(
        "How losers drop in, round after round: %(orders)s; blank = reversed, "
        "half_swapped (avoids early rematches)."
    ) % {"orders": ", ".join(o.value for o in FeedOrder)}


GROUPS = (
    OptionGroup(
        "consolation",
        gettext_lazy("Consolation and last chance"),
        gettext_lazy("(single elimination)"),
    ),
    OptionGroup("grand_final", gettext_lazy("Grand final"), gettext_lazy("(double elimination)")),
    OptionGroup("drop_ins", gettext_lazy("Drop-ins"), gettext_lazy("(elimination)")),
    OptionGroup("rounds", gettext_lazy("Rounds"), gettext_lazy("(Swiss)"), pair=True),
    OptionGroup(
        "groups", gettext_lazy("Groups and playoff"), gettext_lazy("(round robin)"), pair=True
    ),
    OptionGroup("tie_breaks", gettext_lazy("Tie-breaks"), gettext_lazy("(Swiss and round robin)")),
)

_K = OptionKind

OPTIONS = (
    TournamentOption(
        "name",
        _K.TEXT,
        label=gettext_lazy("Name"),
        required=True,
        max_length=limits.MAX_LABEL,
        page="event",
        any_time=True,
    ),
    TournamentOption(
        "starts_on",
        _K.DATE,
        label=gettext_lazy("Starts on"),
        nullable=True,
        page="event",
        any_time=True,
    ),
    TournamentOption(
        "ends_on",
        _K.DATE,
        label=gettext_lazy("Ends on"),
        nullable=True,
        page="event",
        any_time=True,
    ),
    TournamentOption(
        "format",
        _K.CHOICE,
        label=gettext_lazy("Format"),
        required=True,
        choices=lambda: TournamentFormat.choices,
        page="event",
    ),
    TournamentOption(
        "consolation_from",
        _K.ROUNDS,
        label=gettext_lazy("Consolation: losers of main rounds"),
        help=gettext_lazy(
            "1 = first-round losers (Milwaukee); 1, 2 = a progressive consolation; "
            "blank = no consolation."
        ),
        shape="feeding_rounds",
        group="consolation",
    ),
    TournamentOption(
        "last_chance_from",
        _K.ROUNDS,
        label=gettext_lazy("Last chance: losers of consolation rounds"),
        help=gettext_lazy(
            "1 = the first consolation round that holds matches; blank = no last chance."
        ),
        shape="feeding_rounds",
        group="consolation",
    ),
    TournamentOption(
        "grand_final_reset",
        _K.BOOL,
        label=gettext_lazy("Grand-final reset (a deciding match if the losers' champion wins)"),
        initial=True,
        group="grand_final",
    ),
    TournamentOption(
        "feed_orders",
        _K.NAMES,
        label=gettext_lazy("Drop-in orders"),
        help=lazy(_feed_orders_help, str)(),
        shape="feed_orders",
        group="drop_ins",
    ),
    TournamentOption(
        "seeding",
        _K.CHOICE,
        label=gettext_lazy("Seed by"),
        help=gettext_lazy(
            "By rating: the club's rating list. Seed again on the dashboard once "
            "the players are in."
        ),
        initial=SeedingMethod.RATING,
        choices=lambda: SeedingMethod.choices,
        page="event",
    ),
    TournamentOption(
        "random_seed",
        _K.INT,
        label=gettext_lazy("Random seed"),
        help=gettext_lazy("For a random draw: the same number gives the same draw."),
        minimum=0,
        maximum=limits.MAX_SEED,
        page="event",
    ),
    TournamentOption("tie_breaks", _K.SHAPE, shape="tie_breaks", group="tie_breaks"),
    TournamentOption(
        "swiss_rounds",
        _K.INT,
        label=gettext_lazy("Swiss rounds"),
        minimum=1,
        maximum=50,
        nullable=True,
        initial=5,
        group="rounds",
    ),
    TournamentOption(
        "max_losses",
        _K.INT,
        label=gettext_lazy("Out after losses"),
        help=gettext_lazy("Blank: nobody is put out; the Swiss ends after its rounds."),
        minimum=1,
        maximum=10,
        nullable=True,
        group="rounds",
    ),
    TournamentOption(
        "groups",
        _K.INT,
        label=gettext_lazy("Groups"),
        minimum=1,
        maximum=64,
        initial=1,
        group="groups",
    ),
    TournamentOption(
        "playoff_qualifiers",
        _K.INT,
        label=gettext_lazy("Playoff: qualifiers per group"),
        help=gettext_lazy("0 = no playoff."),
        minimum=0,
        maximum=16,
        initial=0,
        group="groups",
    ),
    # The create page builds the schedule from its "Match length" fields (forms).
    TournamentOption("match_lengths", _K.SHAPE, shape="match_lengths"),
    TournamentOption(
        "crawford", _K.BOOL, label=gettext_lazy("Crawford rule"), initial=True, page="event"
    ),
    TournamentOption("rated", _K.BOOL, label=gettext_lazy("Rated"), initial=True, page="event"),
    TournamentOption(
        "variant",
        _K.CHOICE,
        label=gettext_lazy("Game played"),
        help=gettext_lazy(
            "Every match of the event is played as this game. Tavli plays portes, "
            "plakoto and fevga in rotation. A variant is rated only on its own list, if "
            "the club keeps one."
        ),
        api_help="The game every match of the event is played as (GET /api/v1/variants/, "
        "or tavli: portes, plakoto and fevga in rotation); standard by default.",
        initial="standard",
        choices=variants.match_choices,
        page_choices=variant_names.choices,
        page="event",
    ),
    TournamentOption(
        "bye_is_win",
        _K.BOOL,
        label=gettext_lazy("A bye counts as a win"),
        initial=True,
        group="tie_breaks",
    ),
    TournamentOption(
        "forfeit_feeds_consolation",
        _K.BOOL,
        label=gettext_lazy("A player who forfeits a main match still plays the consolation"),
        help=gettext_lazy("Off: a no-show who forfeits is out of the event."),
        api_help="A main match lost by forfeit still sends its loser to the consolation "
        "and last chance (default false: the forfeiting player is out).",
        initial=False,
        group="consolation",
    ),
    TournamentOption(
        "prize_order",
        _K.NAMES,
        label=gettext_lazy("Prize order"),
        help=gettext_lazy(
            "For example main, consolation:2, last_chance:2 (the default when blank)."
        ),
        shape="prize_order",
        group="consolation",
        any_time=True,
    ),
    TournamentOption(
        "capacity",
        _K.INT,
        label=gettext_lazy("Capacity"),
        help=gettext_lazy(
            "The most players in the field; those who register beyond it join the "
            "waitlist and move up when a place frees. Blank: no cap, no waitlist."
        ),
        api_help="A capped field: registrations beyond it join the waitlist (null: no cap).",
        minimum=2,
        maximum=limits.MAX_INT16,
        nullable=True,
        page="settings",
    ),
    TournamentOption(
        "check_in_required",
        _K.BOOL,
        label=gettext_lazy("Players check in before the draw"),
        help=gettext_lazy(
            "Players tick in from their phone or at your desk; the no-shows are dropped "
            "before the draw and the waitlist moves up."
        ),
        api_help="Players check in before the draw; no-shows are dropped.",
        page="settings",
    ),
    # No field on the pages: set through the API.
    TournamentOption(
        "auto_call_rounds",
        _K.BOOL,
        api_help="Call each round (emails, push) when the one before ends.",
        any_time=True,
    ),
    TournamentOption(
        "clock_policy",
        _K.CHOICE,
        label=gettext_lazy("Clocks in this event"),
        help=gettext_lazy(
            "Required: a final result without a clock is refused for players; a "
            "director may enter it with a reason."
        ),
        api_help="Clocks required, allowed or none.",
        initial=ClockPolicy.ALLOWED.value,
        choices=lambda: ClockPolicy.choices,
        page_choices=lambda: POLICY_CHOICES,
        page="settings",
        any_time=True,
    ),
    # The settings page builds it from its "Per round" fields (event_settings_form).
    TournamentOption("clock_rounds", _K.SHAPE, shape="clock_rounds", any_time=True),
    TournamentOption(
        "clock_preset",
        _K.CHOICE,
        choices=lambda: [(p.value, p.name) for p in Preset],
        any_time=True,
    ),
    TournamentOption(
        "clock_flag_rule",
        _K.CHOICE,
        api_help="What a flag fall does: loss, or overtime first.",
        choices=lambda: [(r.value, r.name) for r in FlagRule],
        any_time=True,
    ),
    TournamentOption("clock_overtime_ms", _K.INT, minimum=1000, maximum=600_000, any_time=True),
)
