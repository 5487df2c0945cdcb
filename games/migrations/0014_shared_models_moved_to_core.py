"""Job, IdempotentRequest and DomainEvent now belong to ``core`` (its migration 0001):
removed from this app's state only, their tables and rows stay as they are."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_game_cube_owner_unknown"),
        ("core", "0001_shared_models_from_games"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.DeleteModel(name="DomainEvent"),
                migrations.DeleteModel(name="IdempotentRequest"),
                migrations.DeleteModel(name="Job"),
            ],
        ),
    ]
