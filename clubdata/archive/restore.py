"""Reading an archive into this site: a new club with new ids, in one transaction.

Every row is checked before it is written: its fields are exactly the section's, each
value passes the model's own field validation (``Model.clean_fields``: types, choices,
lengths, the validators the models declare), and each reference names a row the file
holds. The rows come from a :class:`~.reader.Spool` (the file read as a stream, one
temporary file per section) and are checked and inserted section by section, a batch
at a time (``bulk_create``), with their recorded times put back, so memory stays
bounded by a batch, not the file; what the database itself refuses (a unique constraint, a
check) ends the import the same way. Any refusal raises :class:`ArchiveError` naming
the place in the file, and the transaction is rolled back: nothing is written.

The archive becomes a **new** club (its slug is the file's unless the importer gives
another; a slug in use is refused). Players are created new too: a player's or an
event's slug already used on this site gets a number (``alice-2``), counted in
``renamed``. Accounts are not carried: the importer is the new club's director.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import DataError, IntegrityError, connection, models, transaction

from core.errors import N_
from games.models import Club, Player
from tournaments.models import Tournament

from .format import ArchiveError
from .reader import Spool
from .sections import CLUB_COLUMNS, ID, ID_GROUPS, ID_KEYS, IDS, SECTIONS, Section

Progress = Callable[[int, int, str], None]
BATCH = 500


@dataclass
class Restored:
    """What an import did: the new club, rows created per section, slugs renamed."""

    club: Club
    counts: dict[str, int] = field(default_factory=dict)
    renamed: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "club": self.club.slug,
            "counts": self.counts,
            "renamed": self.renamed,
            "total": sum(self.counts.values()),
        }


def _refuse(code: str, message: str, place: str) -> ArchiveError:
    return ArchiveError(code, message, place)


def _check_ref(value: Any, size: int, nullable: bool, place: str, target: str) -> int | None:
    """A reference's position (1-based), checked against its section's size."""
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= size:
        raise _refuse(
            "archive_reference",
            N_(
                "%(place)s refers to %(target)s #%(ref)s, which the file does not hold.",
                place=place,
                target=target,
                ref=value,
            ),
            place,
        )
    return value


def _check_id_shape(shape: str, value: Any, size: int, place: str, target: str) -> None:
    """A JSON column's references: the shape the section declares, each in range."""
    if value is None:
        return
    if shape == ID:
        _check_ref(value, size, True, place, target)
        return
    if shape == ID_KEYS and isinstance(value, dict):
        for key in value:  # "²" is a digit to str.isdigit, not to int(): ASCII only
            digits = isinstance(key, str) and key.isascii() and key.isdigit()
            _check_ref(int(key) if digits else key, size, False, place, target)
        return
    if shape in (IDS, ID_GROUPS) and isinstance(value, list):
        for item in value:
            group = item if shape == ID_GROUPS else [item]
            if not isinstance(group, list):
                break
            for ref in group:
                _check_ref(ref, size, shape == IDS, place, target)
        else:
            return
    raise _refuse(
        "archive_invalid",
        N_("%(place)s is not in the shape the archive format gives it.", place=place),
        place,
    )


def _new_ids(shape: str, value: Any, new: Sequence[int]) -> Any:
    if value is None:
        return None
    if shape == ID:
        return new[value - 1]
    if shape == IDS:
        return [None if v is None else new[v - 1] for v in value]
    if shape == ID_GROUPS:
        return [[new[v - 1] for v in group] for group in value]
    return {str(new[int(k) - 1]): v for k, v in value.items()}


class _Import:
    """One import's state: the new ids of the rows created so far, section by section
    (compact arrays: a position in the file is an index)."""

    def __init__(self, spool: Spool, progress: Progress) -> None:
        self.spool = spool
        self.progress = progress
        self.new: dict[str, array[int]] = {}
        self.used_slugs: dict[str, set[str]] = {}
        self.result: Restored | None = None

    def size(self, name: str) -> int:
        return self.spool.size(name)

    def build(self, section: Section, index: int, row: Any, club: Club) -> models.Model:
        """One row as an unsaved instance, every field checked (see the module)."""
        place = f"{section.name}[{index}]"
        if not isinstance(row, dict):
            raise _refuse("archive_invalid", N_("%(place)s is not an object.", place=place), place)
        columns = section.columns()
        expected = {f.name for f in columns} | set(section.refs) | set(section.many)
        missing = sorted(expected - set(row))
        unknown = sorted(set(row) - expected)
        if missing or unknown:
            name = (missing or unknown)[0]
            raise _refuse(
                "archive_field",
                N_(
                    '%(place)s: the field "%(name)s" is missing or unknown to this format version.',
                    place=place,
                    name=name,
                ),
                f"{place}.{name}",
            )
        obj = section.model()
        skip = [*section.refs, *section.dropped(), *section.json_refs]
        for f in columns:
            if f.name in section.json_refs:
                shape, target = section.json_refs[f.name]
                _check_id_shape(shape, row[f.name], self.size(target), f"{place}.{f.name}", target)
                setattr(obj, f.attname, None if f.null else f.get_default())
            else:
                setattr(obj, f.attname, row[f.name])
        for name, target in section.refs.items():
            model_field = section.model._meta.get_field(name)
            ref = _check_ref(
                row[name],
                self.size(target),
                bool(getattr(model_field, "null", False)),
                f"{place}.{name}",
                target,
            )
            setattr(obj, f"{name}_id", None if ref is None else self.new[target][ref - 1])
        for name, target in section.many.items():
            refs = row[name]
            if not isinstance(refs, list):
                raise _refuse(
                    "archive_invalid",
                    N_("%(place)s is not a list.", place=f"{place}.{name}"),
                    f"{place}.{name}",
                )
            for ref in refs:
                _check_ref(ref, self.size(target), False, f"{place}.{name}", target)
        if section.club_field:
            setattr(obj, section.club_field, club)
        exclude = skip + ([section.club_field] if section.club_field else [])
        _clean(obj, exclude, place, section.below_zero)
        return obj

    def batches(self, name: str) -> Iterator[list[tuple[int, Any]]]:
        """The section's rows, numbered from 0, a batch at a time."""
        batch: list[tuple[int, Any]] = []
        for index, row in enumerate(self.spool.rows(name)):
            batch.append((index, row))
            if len(batch) == BATCH:
                yield batch
                batch = []
        if batch:
            yield batch

    def create(self, section: Section, club: Club) -> None:
        self.new[section.name] = new = array("q")
        for batch in self.batches(section.name):
            objs = [self.build(section, i, row, club) for i, row in batch]
            self.insert(section, objs, [row for _, row in batch])
            new.extend(obj.pk for obj in objs)
        assert self.result is not None
        self.result.counts[section.name] = len(new)

    def insert(self, section: Section, objs: list[models.Model], rows: list[Any]) -> None:
        if section.model is Player:
            self.rename(objs, Player, "players")
        if section.model is Tournament:
            self.rename(objs, Tournament, "events")
        times = [
            f
            for f in section.columns()
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        ]
        kept = [{f.attname: getattr(o, f.attname) for f in times} for o in objs]
        try:
            section.model._default_manager.bulk_create(objs)
        except (ValueError, TypeError, OverflowError, UnicodeError) as exc:
            # a value no column can hold (too big a number, text no encoding takes):
            # the file's fault, the same on every attempt
            raise _refuse(
                "archive_value",
                N_(
                    "%(place)s holds a value the database cannot store (%(error)s).",
                    place=section.name,
                    error=f"{type(exc).__name__}: {exc}"[:200],
                ),
                section.name,
            ) from exc
        if times:
            for obj, values in zip(objs, kept, strict=True):
                for name, value in values.items():
                    setattr(obj, name, value)
            put_back(section.model, objs, times)
        for name, target in section.many.items():
            through = getattr(section.model, name).through
            source = f"{section.model._meta.model_name}_id"
            dest = f"{getattr(section.model, name).field.related_model._meta.model_name}_id"
            links = [
                through(**{source: obj.pk, dest: self.new[target][ref - 1]})
                for obj, row in zip(objs, rows, strict=True)
                for ref in row[name]
            ]
            through.objects.bulk_create(links, batch_size=BATCH)

    def rename(self, objs: list[models.Model], model: type[models.Model], name: str) -> None:
        """Give a numbered slug to each row whose slug this site already uses."""
        slugs = [obj.slug for obj in objs]  # type: ignore[attr-defined]
        used = self.used_slugs.setdefault(name, set())
        taken = set(model._default_manager.filter(slug__in=slugs).values_list("slug", flat=True))
        used.update(slugs)
        if not taken:
            return
        used |= taken
        limit = getattr(model._meta.get_field("slug"), "max_length", None) or 50
        renamed = 0
        for obj in objs:
            if obj.slug not in taken:  # type: ignore[attr-defined]
                continue
            number = 2
            while True:
                suffix = f"-{number}"
                candidate = obj.slug[: limit - len(suffix)] + suffix  # type: ignore[attr-defined]
                if (
                    candidate not in used
                    and not model._default_manager.filter(slug=candidate).exists()
                ):
                    break
                number += 1
            used.add(candidate)
            obj.slug = candidate  # type: ignore[attr-defined]
            renamed += 1
        assert self.result is not None
        self.result.renamed[name] = self.result.renamed.get(name, 0) + renamed

    def settle_json(self) -> None:
        """The JSON columns' references, now that every section has its new ids (the
        rows read again from the spool, a batch at a time)."""
        for section in SECTIONS:
            if not section.json_refs:
                continue
            new = self.new[section.name]
            for batch in self.batches(section.name):
                objs = []
                for index, row in batch:
                    obj = section.model(pk=new[index])
                    for name, (shape, target) in section.json_refs.items():
                        setattr(obj, name, _new_ids(shape, row[name], self.new[target]))
                    objs.append(obj)
                section.model._default_manager.bulk_update(objs, list(section.json_refs))


def put_back(model: type[models.Model], objs: list[Any], columns: list[Any]) -> None:
    """Write the recorded times over those ``bulk_create`` stamped (``auto_now_add``),
    one ``UPDATE ... FROM (VALUES ...)`` per batch: ``bulk_update``'s ``CASE`` per row
    cost 37 of an 82-second import of 16,000 rows (PostgreSQL and SQLite both read it;
    a ``VALUES`` list's columns are ``column1``, ``column2``... in both)."""
    table = connection.ops.quote_name(model._meta.db_table)
    pk = connection.ops.quote_name(model._meta.pk.column)
    sets = ", ".join(
        f"{connection.ops.quote_name(f.column)} = v.column{n}" for n, f in enumerate(columns, 2)
    )
    batch = max(1, 900 // (len(columns) + 1))  # well under SQLite's bound on parameters
    with connection.cursor() as cursor:
        for start in range(0, len(objs), batch):
            chunk = objs[start : start + batch]
            row = "(" + ", ".join(["%s"] * (len(columns) + 1)) + ")"
            params: list[Any] = []
            for obj in chunk:
                params.append(obj.pk)
                params.extend(
                    f.get_db_prep_value(getattr(obj, f.attname), connection) for f in columns
                )
            cursor.execute(
                f"UPDATE {table} SET {sets} FROM (VALUES {', '.join([row] * len(chunk))}) AS v "
                f"WHERE {table}.{pk} = v.column1",
                params,
            )


def _clean(
    obj: models.Model, exclude: list[str], place: str, below_zero: Sequence[str] = ()
) -> None:
    """The model's own field validation, its first complaint named by place; the
    ``below_zero`` columns without their minimum (``Section.below_zero``)."""
    try:
        obj.clean_fields(exclude=[*exclude, *below_zero])
        for name in below_zero:
            _clean_signed(obj, name)
    except ValidationError as exc:
        name, messages = next(iter(exc.message_dict.items()))
        raise _refuse(
            "archive_value",
            N_(
                "%(place)s.%(name)s: %(problem)s",
                place=place,
                name=name,
                problem=" ".join(messages),
            ),
            f"{place}.{name}",
        ) from exc
    except (TypeError, ValueError, AttributeError) as exc:
        raise _refuse(
            "archive_value",
            N_("%(place)s holds a value of the wrong type.", place=place),
            place,
        ) from exc


def _clean_signed(obj: models.Model, name: str) -> None:
    f = obj._meta.get_field(name)
    try:
        value = f.to_python(getattr(obj, f.attname))  # type: ignore[union-attr]
        f.validate(value, obj)  # type: ignore[union-attr]
        for validator in f.validators:  # type: ignore[union-attr]
            if not isinstance(validator, MinValueValidator):
                validator(value)
    except ValidationError as exc:
        raise ValidationError({name: exc.messages}) from exc
    setattr(obj, f.attname, value)  # type: ignore[union-attr]


def _club(archive: dict[str, Any], slug: str | None, name: str | None) -> Club:
    values = archive.get("club")
    if not isinstance(values, dict) or set(values) != set(CLUB_COLUMNS):
        raise _refuse(
            "archive_invalid",
            N_("The archive's \"club\" is not an object with the club's fields."),
            "club",
        )
    club = Club(**values)
    if slug:
        club.slug = slug
    if name:
        club.name = name
    _clean(club, [], "club")
    if Club.objects.filter(slug=club.slug).exists():
        raise ArchiveError(
            "slug_taken",
            N_(
                "A club with the slug '%(slug)s' exists on this site: choose another slug "
                "for the imported club.",
                slug=club.slug,
            ),
            "slug",
        )
    created_at = club.created_at
    club.save()
    Club.objects.filter(pk=club.pk).update(created_at=created_at)
    club.created_at = created_at
    return club


def restore_archive(
    spool: Spool,
    *,
    director: Any,
    slug: str | None = None,
    name: str | None = None,
    progress: Progress | None = None,
) -> Restored:
    """Create the archive's club, with everything it holds, as a new club directed by
    ``director``; all or nothing (see the module)."""
    report = progress or (lambda done, total, message: None)
    job = _Import(spool, report)
    total = len(SECTIONS) + 2
    place = "club"
    try:
        with transaction.atomic():
            club = _club(spool.header, slug, name)
            if director is not None:
                club.directors.add(director)
            job.result = Restored(club=club)
            place = "club"
            for number, section in enumerate(SECTIONS, start=1):
                report(number, total, section.name)
                place = section.name
                job.create(section, club)
            place = "file"
            job.settle_json()
            report(total, total, "done")
    except (ValueError, TypeError, KeyError, OverflowError, UnicodeError) as exc:
        # a value of the file that no check above foresaw: the file's, so the same on
        # every attempt; said in words, not retried (issue 37)
        raise ArchiveError(
            "archive_value",
            N_(
                "%(place)s holds a value this site cannot read (%(error)s): nothing was imported.",
                place=place,
                error=f"{type(exc).__name__}: {exc}"[:200],
            ),
            place,
        ) from exc
    except (IntegrityError, DataError) as exc:  # a constraint, or a value the column refuses
        raise ArchiveError(
            "archive_conflict",
            N_(
                "The archive breaks a rule of the database (%(error)s): nothing was imported.",
                error=str(exc).splitlines()[0][:200],
            ),
            "file",
        ) from exc
    return job.result
