PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install gnubg-program run test lint format bench docs clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# Debian's gnubg program: the independent reference of tests/analysis (skipped without it).
# The analysis itself needs only the gnubg Python binding, which `make install` installs.
gnubg-program:
	command -v gnubg >/dev/null 2>&1 || test -x /usr/games/gnubg || \
	  (apt-get update -qq && apt-get install -y -qq gnubg)

run: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy .

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(STAMP)
	$(BIN)/python -m bench all

docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

clean:
	rm -rf $(VENV) db.sqlite3 .pytest_cache site
