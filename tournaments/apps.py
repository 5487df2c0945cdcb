from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        """Register the bracket's result listener, the long jobs, the page panels,
        the clock policy of its matches, the live channels and the demo seeder."""
        from core.demo import register_demo_seeder
        from core.listeners import register_result_listener
        from games.clock_policies import register_clock_policy

        from . import (
            jobs,  # noqa: F401 - registers the job handlers
            live,
            panels,
        )
        from .clocks import tournament_clock_policy
        from .services.results import follow_up_result, record_match_result

        register_result_listener("tournaments.bracket", record_match_result)
        # after the bracket's: the version, tables, round statuses, calls, odds
        register_result_listener("tournaments.follow_up", follow_up_result)
        panels.register()
        register_clock_policy("tournaments", tournament_clock_policy)
        live.register()
        register_demo_seeder("tournaments", "tournaments.demo.seed")

        from . import club_zones

        club_zones.register()
