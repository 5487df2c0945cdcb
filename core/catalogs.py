"""The translation catalogs compiled on every start path, not only by ``make``.

A checkout started with ``manage.py migrate`` and ``runserver`` (no ``make``) had no
compiled ``.mo`` files, so a German club's pages came out in English with no word of
why. ``migrate`` now compiles every catalog whose ``.mo`` is missing or older than its
``.po`` (a ``post_migrate`` receiver in ``core.apps``), with Babel's pure-Python
compiler, so GNU gettext is not needed to run Boxcars (only to refresh the catalogs);
and a system check warns at start-up when a catalog is still not compiled.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Warning


def catalogs() -> list[Path]:
    """Every ``.po`` file under the project's ``LOCALE_PATHS``."""
    found: list[Path] = []
    for root in settings.LOCALE_PATHS:
        found.extend(sorted(Path(root).glob("*/LC_MESSAGES/*.po")))
    return found


def stale(paths: Iterable[Path]) -> list[Path]:
    """The catalogs whose compiled ``.mo`` is missing or older than the ``.po``."""
    out = []
    for po in paths:
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            out.append(po)
    return out


def compile_catalog(po: Path) -> None:
    """Write ``po``'s ``.mo`` beside it, as ``msgfmt`` would (fuzzy entries left out).

    Written to a temporary name and renamed, so a process reading the catalogs never
    sees half a file."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as source:
        catalog = read_po(source, locale=po.parent.parent.name)
    mo = po.with_suffix(".mo")
    # A name of its own, so two processes migrating at once never write the same file.
    fd, partial = tempfile.mkstemp(dir=mo.parent, prefix=mo.name, suffix=".partial")
    try:
        with os.fdopen(fd, "wb") as target:
            write_mo(target, catalog, use_fuzzy=False)
        os.replace(partial, mo)
    except BaseException:
        os.unlink(partial)
        raise


def compile_stale(**_: Any) -> list[Path]:
    """Compile the stale catalogs (the ``post_migrate`` receiver); returns them."""
    todo = stale(catalogs())
    for po in todo:
        compile_catalog(po)
    return todo


def check_catalogs_compiled(app_configs: Any = None, **_: Any) -> list[CheckMessage]:
    """Say at start-up that pages will be in English until the catalogs are compiled."""
    todo = stale(catalogs())
    if not todo:
        return []
    names = ", ".join(str(p.relative_to(p.parents[3])) for p in todo[:3])
    return [
        Warning(
            f"{len(todo)} translation catalog(s) not compiled ({names}...): pages show "
            "English until they are.",
            hint="Run `python manage.py migrate` (it compiles them) or `make messages`.",
            id="boxcars.W001",
        )
    ]
