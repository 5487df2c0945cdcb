"""Store, with a drawn bracket, the consolation rounds that fed its last chance.

Brackets drawn before this field took their last chance's feeding rounds literally
(``last_chance_from`` as consolation round numbers); the rule since counts them over
the consolation rounds that hold matches. Re-deriving an old bracket under the new rule
would rewire it under its stored slots (a slot the database does not have, or a last
chance refused outright). So each drawn bracket's feeding rounds are read back from its
stored slots: the consolation slots whose loser goes to a last-chance slot.
"""

from django.db import migrations, models


def record_drawn_feeding(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Pairing = apps.get_model("tournaments", "Pairing")
    drawn = Tournament.objects.exclude(bracket_order=[]).exclude(last_chance_from=[])
    for tournament in drawn.filter(format="single_elimination"):
        rounds = sorted(
            set(
                Pairing.objects.filter(
                    tournament=tournament,
                    round__stage__kind="consolation",
                    loser_to__startswith="last_chance-",
                ).values_list("round__number", flat=True)
            )
        )
        if rounds:
            tournament.drawn_last_chance_from = rounds
            tournament.save(update_fields=["drawn_last_chance_from"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_tournament_prize_order"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="drawn_last_chance_from",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(record_drawn_feeding, migrations.RunPython.noop),
    ]
