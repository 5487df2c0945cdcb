"""Catalogs compiled on every start path (issue #27 item 10): ``migrate`` compiles a
missing or stale ``.mo`` with Babel (no GNU gettext needed), the result reads as
``msgfmt``'s does, and a start-up check says so while a catalog is not compiled."""

from __future__ import annotations

import gettext
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command

from core import catalogs

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def locale_copy(tmp_path, settings):
    """The German catalogs in a folder of their own, with no compiled file."""
    target = tmp_path / "locale" / "de" / "LC_MESSAGES"
    target.mkdir(parents=True)
    for name in ("django.po", "djangojs.po"):
        shutil.copy(ROOT / "locale" / "de" / "LC_MESSAGES" / name, target / name)
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    return target


def _reads(mo: Path) -> dict:
    with mo.open("rb") as handle:
        return dict(gettext.GNUTranslations(handle)._catalog)  # type: ignore[attr-defined]


@pytest.mark.django_db
def test_migrate_compiles_the_catalogs_a_bare_checkout_lacks(locale_copy):
    assert catalogs.check_catalogs_compiled()[0].id == "boxcars.W001"
    call_command("migrate", verbosity=0)
    mo = locale_copy / "django.mo"
    assert mo.exists() and (locale_copy / "djangojs.mo").exists()
    assert _reads(mo)["Double dropped"] == "Doppel abgelehnt"
    assert catalogs.check_catalogs_compiled() == []
    assert not list(locale_copy.glob("*.partial"))


def test_a_catalog_edited_after_compiling_is_compiled_again(locale_copy):
    catalogs.compile_stale()
    po, mo = locale_copy / "django.po", locale_copy / "django.mo"
    os.utime(mo, (po.stat().st_mtime - 10, po.stat().st_mtime - 10))
    assert catalogs.stale(catalogs.catalogs()) == [po]
    assert catalogs.compile_stale() == [po]
    assert catalogs.stale(catalogs.catalogs()) == []


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="needs GNU gettext's msgfmt")
def test_babel_compiles_what_msgfmt_compiles(locale_copy, tmp_path):
    po = locale_copy / "django.po"
    catalogs.compile_catalog(po)
    reference = tmp_path / "msgfmt.mo"
    subprocess.run(["msgfmt", "-o", str(reference), str(po)], check=True)
    ours, theirs = _reads(po.with_suffix(".mo")), _reads(reference)
    theirs.pop("", None), ours.pop("", None)  # the header's metadata is written differently
    assert ours == theirs
    assert len(ours) > 500
