"""Job, IdempotentRequest and DomainEvent move from ``games`` to ``core``, tables and all.

State only: the tables keep their names (``games_job``, ``games_idempotentrequest``,
``games_domainevent``), their rows, indexes and constraints; ``games`` 0014 removes the
models from its own state after this migration gives them to ``core``. The content
types (and so the permissions granted on them) are renamed with the models.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = ["job", "idempotentrequest", "domainevent"]


def _relabel(apps, old: str, new: str) -> None:
    content_type = apps.get_model("contenttypes", "ContentType")
    for model in MOVED:
        if not content_type.objects.filter(app_label=new, model=model).exists():
            content_type.objects.filter(app_label=old, model=model).update(app_label=new)


def content_types_to_core(apps, schema_editor) -> None:
    _relabel(apps, "games", "core")


def content_types_to_games(apps, schema_editor) -> None:
    _relabel(apps, "core", "games")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0013_game_cube_owner_unknown"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='DomainEvent',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(max_length=60)),
                        ('payload', models.JSONField(default=dict)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('handled_at', models.DateTimeField(blank=True, null=True)),
                        ('attempts', models.PositiveIntegerField(default=0)),
                        ('last_error', models.TextField(blank=True)),
                    ],
                    options={
                        'db_table': 'games_domainevent',
                        'ordering': ['id'],
                        'indexes': [models.Index(fields=['handled_at', 'id'], name='games_domai_handled_ac34a7_idx')],
                    },
                ),
                migrations.CreateModel(
                    name='IdempotentRequest',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('scope', models.CharField(help_text='Whose key: a user or a score link.', max_length=80)),
                        ('key', models.CharField(max_length=255)),
                        ('fingerprint', models.CharField(help_text='Hash of method, path and body.', max_length=64)),
                        ('status_code', models.PositiveSmallIntegerField()),
                        ('body', models.JSONField(null=True)),
                        ('headers', models.JSONField(default=dict)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        'db_table': 'games_idempotentrequest',
                        'constraints': [models.UniqueConstraint(fields=('scope', 'key'), name='unique_idempotency_key')],
                    },
                ),
                migrations.CreateModel(
                    name='Job',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(max_length=60)),
                        ('params', models.JSONField(default=dict)),
                        ('status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('succeeded', 'Succeeded'), ('failed', 'Failed')], default='queued', max_length=10)),
                        ('done', models.PositiveIntegerField(default=0)),
                        ('total', models.PositiveIntegerField(default=0)),
                        ('message', models.CharField(blank=True, max_length=255)),
                        ('result', models.JSONField(blank=True, null=True)),
                        ('error', models.JSONField(blank=True, null=True)),
                        ('attempts', models.PositiveIntegerField(default=0)),
                        ('dedupe_key', models.CharField(blank=True, max_length=120, null=True, unique=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('started_at', models.DateTimeField(blank=True, null=True)),
                        ('finished_at', models.DateTimeField(blank=True, null=True)),
                        ('heartbeat_at', models.DateTimeField(blank=True, null=True)),
                        ('runner', models.CharField(blank=True, max_length=120)),
                        ('club', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='jobs', to='games.club')),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('retried_as', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='retry_of', to='core.job')),
                    ],
                    options={
                        'db_table': 'games_job',
                        'ordering': ['-created_at', '-id'],
                    },
                ),
            ],
        ),
        migrations.RunPython(content_types_to_core, content_types_to_games),
    ]
