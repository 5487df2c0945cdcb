"""The translation catalogs are complete and in step with the sources (docs/languages.md).

For each language and each domain (``django``: the Python code and templates; ``djangojs``:
the browser scripts in static/js, served by ``/jsi18n/``): no untranslated or fuzzy entry,
placeholders kept (``msgfmt --check``), and the catalog holds exactly the msgids that
``makemessages`` finds in the sources today (run on a copy of the project, so a string
marked or changed without a catalog refresh fails here). Needs GNU gettext's tools, which
CI installs (.ci/run); skipped without them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("msgfmt", "msgattrib", "xgettext", "msgmerge")
needs_gettext = pytest.mark.skipif(
    any(shutil.which(tool) is None for tool in TOOLS),
    reason="GNU gettext's tools are not installed (apt-get install gettext; CI has them)",
)
LANGUAGES = ["de", "fr", "da"]
DOMAINS = ["django", "djangojs"]
CATALOGS = [(language, domain) for language in LANGUAGES for domain in DOMAINS]
# What a copy of the project needs for makemessages: the code, the templates, the catalogs.
#: Not sources: left out of the copy (the caches may hold another test's live sockets,
#: which cannot be copied: Pushpin's, while the worker tests run beside this one in CI).
NOT_COPIED = {
    ".venv", ".git", "site", "staticfiles", "tests", "bench", "docs", "artifacts",
    ".pytest_cache", ".mypy_cache", ".ruff_cache", "node_modules",
}  # fmt: skip


def catalog(language: str, domain: str = "django") -> Path:
    return ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"


def run(*args: str | Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, check=False
    )


def entries(output: str) -> list[str]:
    """The msgids of a msgattrib selection (its header entry left out)."""
    return [
        line for line in output.splitlines() if line.startswith("msgid ") and line != 'msgid ""'
    ]


def msgids(po: Path) -> set[str]:
    """Every live msgid of a catalog (obsolete ``#~`` entries and the header left out)."""
    found: set[str] = set()
    current: list[str] | None = None
    for line in po.read_text(encoding="utf-8").splitlines():
        if line.startswith("msgid "):
            current = [line[len("msgid ") :]]
        elif current is not None and line.startswith('"'):
            current.append(line)
        elif current is not None:
            text = "".join(part.strip()[1:-1] for part in current)
            if text:
                found.add(text)
            current = None
    return found


@pytest.fixture(scope="module")
def fresh_catalogs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """makemessages run today over a copy of the sources: what the catalogs should hold."""
    copy = tmp_path_factory.mktemp("catalogs") / "project"
    shutil.copytree(
        ROOT,
        copy,
        ignore=lambda d, names: [n for n in names if Path(d) == ROOT and n in NOT_COPIED],
    )
    env = {**os.environ, "PYTHONPATH": str(copy), "DJANGO_SETTINGS_MODULE": "config.settings"}
    result = subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "de", "-l", "fr", "-l", "da",
         "--no-obsolete", "--ignore=.venv", "--ignore=site", "--ignore=staticfiles"],
        cwd=copy, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    # The browser scripts' catalog, as `make catalogs` makes it (the vendored libraries
    # are not ours to translate).
    result = subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-d", "djangojs", "-l", "de", "-l", "fr",
         "-l", "da", "--no-obsolete", "--ignore=.venv", "--ignore=site",
         "--ignore=staticfiles", "--ignore=static/vendor"],
        cwd=copy, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return copy / "locale"


@needs_gettext
@pytest.mark.parametrize(("language", "domain"), CATALOGS)
def test_catalog_is_in_step_with_the_sources(
    language: str, domain: str, fresh_catalogs: Path
) -> None:
    fresh = fresh_catalogs / language / "LC_MESSAGES" / f"{domain}.po"
    # Both ways: a string marked in the sources but missing from the catalog, and an
    # entry the sources no longer have (run `make catalogs`, then translate).
    expected, committed = msgids(fresh), msgids(catalog(language, domain))
    assert expected, f"makemessages found no {domain} string: is the domain still extracted?"
    assert not expected - committed, f"not in the catalog: {sorted(expected - committed)[:10]}"
    assert not committed - expected, (
        f"no longer in the sources: {sorted(committed - expected)[:10]}"
    )


@needs_gettext
@pytest.mark.parametrize(("language", "domain"), CATALOGS)
def test_catalog_compiles_with_its_placeholders(language: str, domain: str) -> None:
    result = run("msgfmt", "--check", "-o", os.devnull, catalog(language, domain))
    assert result.returncode == 0, result.stderr[-3000:]


@needs_gettext
@pytest.mark.parametrize(("language", "domain"), CATALOGS)
def test_catalog_has_no_untranslated_or_fuzzy_entry(language: str, domain: str) -> None:
    po = catalog(language, domain)
    untranslated = entries(run("msgattrib", "--untranslated", "--no-obsolete", po).stdout)
    fuzzy = entries(run("msgattrib", "--only-fuzzy", "--no-obsolete", po).stdout)
    assert not untranslated, f"{len(untranslated)} untranslated, e.g. {untranslated[:5]}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy, e.g. {fuzzy[:5]}"
