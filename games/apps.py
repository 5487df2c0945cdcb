from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games, matches and ratings"

    def ready(self) -> None:
        # registers the rating event handlers and jobs, the "matches.import" job, and
        # the handler telling directors about a dispute
        from core.demo import register_demo_seeder
        from core.idempotency import register_scope

        from . import dispute_notices, live, rating_jobs, score_links, transcript_jobs  # noqa: F401

        register_scope("games.score_link", score_links.idempotency_scope)
        register_demo_seeder("games", "games.demo.seed")
        live.register()

        from . import club_zones

        club_zones.register()
