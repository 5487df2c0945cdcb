"""Writing a club's archive: every section's rows, with references for ids.

Reads only (one query per section, one for the players and one per many-to-many
field); the job that calls it stores the bytes (``clubdata.services``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.db import models
from django.utils import timezone

from games.models import Club, Player

from . import format as archive_format
from .sections import CLUB_COLUMNS, ID, ID_GROUPS, ID_KEYS, IDS, SECTIONS, Section

Progress = Callable[[int, int, str], None]
Positions = dict[str, dict[int, int]]


def dump_value(f: models.Field[Any, Any], value: Any) -> Any:
    """A column's value as JSON: times and dates in ISO 8601 (UTC), amounts as strings
    with the column's decimal places, JSON as it is."""
    if value is None or isinstance(f, models.JSONField):
        return value
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, Decimal):
        places = Decimal(1).scaleb(-f.decimal_places)  # type: ignore[attr-defined]
        return format(value.quantize(places), "f")
    return value


def _ref(positions: dict[int, int], value: Any) -> int | None:
    return None if value is None else positions.get(int(value))


def dump_ids(shape: str, value: Any, positions: dict[int, int]) -> Any:
    """A column holding ids (``sections.IDS`` ...) with references for them; an id of
    a row the club no longer has becomes null (a list) or is left out (a group, an
    object)."""
    if value is None:
        return None
    if shape == ID:
        return _ref(positions, value)
    if shape == IDS:
        return [_ref(positions, v) for v in value]
    if shape == ID_GROUPS:
        groups = ([_ref(positions, v) for v in group] for group in value)
        return [[ref for ref in group if ref is not None] for group in groups]
    if shape == ID_KEYS:
        refs = {str(_ref(positions, k)): v for k, v in value.items() if _ref(positions, k)}
        return dict(sorted(refs.items(), key=lambda item: int(item[0])))
    raise AssertionError(shape)


def _dump_row(section: Section, obj: models.Model, positions: Positions) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for f in section.columns():
        value = getattr(obj, f.attname)
        if f.name in section.json_refs:
            shape, target = section.json_refs[f.name]
            row[f.name] = dump_ids(shape, value, positions[target])
        else:
            row[f.name] = dump_value(f, value)
    for name, target in section.refs.items():
        row[name] = _ref(positions[target], getattr(obj, f"{name}_id"))
    for name, target in section.many.items():
        row[name] = sorted(positions[target][o.pk] for o in getattr(obj, name).all())
    return row


def _player_ids(club: Club, rows: dict[str, list[models.Model]]) -> set[int]:
    """The club's members and every player its rows name (a guest in a match, a
    director's player who entered a score)."""
    ids = set(club.memberships.values_list("player_id", flat=True))
    for section in SECTIONS:
        for obj in rows.get(section.name, ()):
            for name, target in section.refs.items():
                if target == "players" and getattr(obj, f"{name}_id") is not None:
                    ids.add(getattr(obj, f"{name}_id"))
            for name, (shape, target) in section.json_refs.items():
                if target == "players":
                    ids.update(_ids_in(shape, getattr(obj, name)))
    return ids


def _ids_in(shape: str, value: Any) -> list[int]:
    if not value:
        return []
    if shape == IDS:
        return [int(v) for v in value if v is not None]
    if shape == ID_KEYS:
        return [int(k) for k in value]
    if shape == ID_GROUPS:
        return [int(v) for group in value for v in group if v is not None]
    return [int(value)]


def build_archive(club: Club, progress: Progress | None = None) -> dict[str, Any]:
    """The club's archive as a JSON-ready dict (``docs/club-archive.md``)."""
    report = progress or (lambda done, total, message: None)
    total = len(SECTIONS) + 1
    rows: dict[str, list[models.Model]] = {}
    for number, section in enumerate(SECTIONS[1:], start=1):
        report(number, total, section.name)
        queryset = section.rows(club)
        if section.many:
            queryset = queryset.prefetch_related(*section.many)
        rows[section.name] = list(queryset)
    rows["players"] = list(Player.objects.filter(pk__in=_player_ids(club, rows)).order_by("pk"))
    positions: Positions = {
        name: {obj.pk: index for index, obj in enumerate(objs, start=1)}
        for name, objs in rows.items()
    }
    club_fields = {f.name: f for f in Club._meta.concrete_fields}
    archive: dict[str, Any] = {
        "format": archive_format.FORMAT,
        "version": archive_format.VERSION,
        "exported_at": timezone.now().isoformat(),
        "club": {name: dump_value(club_fields[name], getattr(club, name)) for name in CLUB_COLUMNS},
        "counts": {section.name: len(rows[section.name]) for section in SECTIONS},
    }
    for section in SECTIONS:
        dumped = [_dump_row(section, obj, positions) for obj in rows[section.name]]
        archive[section.name] = (dumped[0] if dumped else None) if section.single else dumped
    report(total, total, "written")
    return archive


def counts(archive: dict[str, Any]) -> dict[str, int]:
    """Rows per section, as the archive's ``counts`` says."""
    return dict(archive.get("counts") or {})
