"""The layer contracts inside the apps name every module of their layer.

import-linter checks the modules a contract lists (``pyproject.toml``): selectors
import no services, pages and API modules import no each other. Its module
expressions cannot say "every module whose name starts with ``selectors``", so the
lists are written out, and this test fails when a new selector, page or API module is
missing from them (a new ``selectors_*.py`` would otherwise be free to import a
service unchecked).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = ("core", "games", "tournaments", "chouette", "analysis", "money")


def contracts() -> dict[str, dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return {c["name"]: c for c in config["tool"]["importlinter"]["contracts"]}


@pytest.fixture(scope="module")
def modules() -> set[str]:
    return set(grimp.build_graph(*APPS, cache_dir=None).modules)


def top_level(modules: set[str], app_modules: list[str]) -> set[str]:
    """The listed modules' roots: ``games.pages`` covers ``games.pages.matches``."""
    return {m for m in modules if any(m == a or m.startswith(f"{a}.") for a in app_modules)}


def leaf(module: str) -> str:
    return module.rsplit(".", 1)[-1]


def test_every_selector_module_is_bound_by_the_selector_contract(modules):
    selectors = {m for m in modules if leaf(m).startswith("selectors")}
    listed = contracts()["Selectors import no services"]["source_modules"]
    assert selectors, "no selector module found"
    assert selectors - top_level(modules, listed) == set()


def test_every_page_module_is_bound_by_the_door_contracts(modules):
    pages = {
        m
        for m in modules
        if m.split(".")[0] != "core" and (leaf(m) == "pages" or leaf(m).endswith("_pages"))
    }
    found = contracts()
    for name, key in (
        ("Pages import no API module", "source_modules"),
        ("API modules import no page", "forbidden_modules"),
    ):
        assert pages - top_level(modules, found[name][key]) == set(), name


def test_every_api_package_is_bound_by_the_door_contracts(modules):
    apis = {m for m in modules if m.count(".") == 1 and leaf(m) == "api"}
    found = contracts()
    assert apis == {f"{app}.api" for app in APPS if f"{app}.api" in modules}
    assert apis <= set(found["Pages import no API module"]["forbidden_modules"])
    assert apis <= set(found["API modules import no page"]["source_modules"])


def test_every_door_is_bound_by_the_rules_contract(modules):
    """Pages, API modules, management commands and task modules may import a pure rules
    module only where ``pyproject.toml`` lists the import with its reason: a new door
    must be under that contract too, or it could call a rule no service checks."""
    doors = {
        m
        for m in modules
        if leaf(m) in ("pages", "api", "management", "tasks", "api_jobs")
        or leaf(m).endswith("_pages")
    }
    listed = contracts()["Doors reach the pure rules through services and selectors"]
    assert doors, "no door module found"
    assert doors - top_level(modules, listed["source_modules"]) == set()
