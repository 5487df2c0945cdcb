PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install gnubg-program gnubg-hyper gettext messages catalogs run serve test lint format bench docs clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) messages
	$(MAKE) --no-print-directory gnubg-hyper GNUBG_HYPER="$(GNUBG_HYPER)" OPTIONAL=1

# GNU gettext: makemessages and compilemessages need its tools (Debian's gettext).
gettext:
	command -v msgfmt >/dev/null 2>&1 || \
	  (apt-get update -qq && apt-get install -y -qq gettext)

# The compiled catalogs (locale/*/LC_MESSAGES/*.mo) are built, never committed.
messages: $(STAMP) gettext
	$(BIN)/python manage.py compilemessages --ignore=.venv --ignore=site -v 0

# Refresh the .po catalogs from the sources (then translate the new entries): django.po
# from the Python code and templates, djangojs.po from static/js (gettext in the browser).
LANGS := -l de -l fr -l da
catalogs: $(STAMP) gettext
	$(BIN)/python manage.py makemessages $(LANGS) --no-obsolete --add-location=file --ignore=.venv --ignore=site \
	  --ignore=staticfiles --ignore=tests --ignore=bench --ignore=docs
	$(BIN)/python manage.py makemessages -d djangojs $(LANGS) --no-obsolete --add-location=file --ignore=.venv \
	  --ignore=site --ignore=staticfiles --ignore=static/vendor --ignore=tests --ignore=bench \
	  --ignore=docs --ignore=node_modules

# GNU Backgammon evaluates hypergammon from databases the binding does not ship
# (docs/rules.md, "Analysis of variants"): built here with Debian's makehyper (package gnubg) into
# the binding's data folder. hyper1.bd takes a moment and hyper2.bd about a minute;
# hyper3.bd (GNUBG_HYPER=3) takes hours, so it is built only when asked for. `make
# install` builds the default ones when makehyper is there (OPTIONAL: skipped, said so).
GNUBG_HYPER ?= 1 2
gnubg-hyper: $(STAMP)
	@makehyper="$$(command -v makehyper || echo /usr/games/makehyper)"; \
	data="$$($(BIN)/python -c 'import gnubg, pathlib; print(pathlib.Path(gnubg.__file__).resolve().parent / "data")')"; \
	if [ ! -x "$$makehyper" ]; then \
	  echo "makehyper not found (apt-get install gnubg): no hypergammon analysis"; \
	  [ -n "$(OPTIONAL)" ] && exit 0 || exit 1; \
	fi; \
	for n in $(GNUBG_HYPER); do \
	  [ -f "$$data/hyper$$n.bd" ] && continue; \
	  echo "building hyper$$n.bd (GNU Backgammon's hypergammon-$$n database)"; \
	  tmp="$$(mktemp -d)"; \
	  ( cd "$$tmp" && "$$makehyper" -c $$n -n -f hyper$$n.bd >/dev/null ) && \
	    mv "$$tmp/hyper$$n.bd" "$$data/hyper$$n.bd"; rm -rf "$$tmp"; \
	  [ -f "$$data/hyper$$n.bd" ] || { echo "makehyper -c $$n failed"; exit 1; }; \
	done

# Debian's gnubg program: the independent reference of tests/analysis (skipped without it).
# The analysis itself needs only the gnubg Python binding, which `make install` installs.
gnubg-program:
	command -v gnubg >/dev/null 2>&1 || test -x /usr/games/gnubg || \
	  (apt-get update -qq && apt-get install -y -qq gnubg)

# HOST and PORT: where `make run` serves (127.0.0.1:8000 unless set); the links in its
# mails (SITE_URL) follow them unless SITE_URL is set. A HOST other than loopback (0.0.0.0,
# to try the pages from a phone on the club's network) accepts any Host header unless
# ALLOWED_HOSTS is set: this is the development server, never a production one.
HOST ?= 127.0.0.1
PORT ?= 8000
RUN_ADDRESS = $(if $(findstring :,$(HOST)),[$(HOST)],$(HOST)):$(PORT)
RUN_URL = http://$(RUN_ADDRESS)
run: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo --url $(RUN_URL)/
	@echo "Boxcars serving $(RUN_URL)/"
	case "$(HOST)" in 127.*|localhost|::1) ;; *) export ALLOWED_HOSTS="$${ALLOWED_HOSTS:-*}" ;; esac; \
	  SITE_URL="$${SITE_URL:-$(RUN_URL)}" exec $(BIN)/python manage.py runserver $(RUN_ADDRESS)

# The production stack on one machine, in the foreground (docs/operations.md): Pushpin
# on PORT (default 8000) in front of gunicorn, the live relay, the Celery worker and beat,
# as docker-compose.yml runs them (the Procfile), with DJANGO_ENV=production. Needs
# DATABASE_URL, REDIS_URL and SECRET_KEY; Ctrl-C (SIGINT) or SIGTERM to honcho stops all.
# Pushpin comes from Debian (apt-get install pushpin).
serve: $(STAMP) messages
	command -v pushpin >/dev/null 2>&1 || \
	  (apt-get update -qq && apt-get install -y -qq pushpin)
	exec deploy/serve.sh

# Parallel by default (pytest-xdist): three processes on this 2-core machine, since the
# browser journeys spend much of their time waiting on pages. TEST_PROCESSES=0 runs in
# one process; the worker and fault tests, which share one Redis, go to one process of
# the three (`--dist loadgroup`, see tests/conftest.py).
TEST_PROCESSES ?= 3
test: $(STAMP) messages
	$(BIN)/python -m pytest -n $(TEST_PROCESSES) --dist loadgroup $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/core/test_import_cycles.py \
	  tests/core/test_import_layers.py
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
