# Two entry points (README "Quick start"): `make run` and `make test`. Both set themselves up.
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
HOST   ?= 0.0.0.0
PORT   ?= 5000

.PHONY: run serve test lint system-packages bench catalogs compile-catalogs messages

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP) compile-catalogs
	$(BIN)/flask --app scorekeeper db upgrade
	$(BIN)/flask --app scorekeeper run --host $(HOST) --port $(PORT)

# Production: gunicorn (threaded workers, deploy/gunicorn.conf.py) on PostgreSQL, rate limits in
# Redis; every setting from the environment (README, "Running it on the internet").
serve: export SCOREKEEPER_DATABASE_URL ?= postgresql+psycopg://postgres@127.0.0.1:5432/scorekeeper
serve: export SCOREKEEPER_RATELIMIT_STORAGE_URL ?= redis://127.0.0.1:6379/0
serve: $(STAMP) compile-catalogs
	$(BIN)/flask --app scorekeeper db upgrade
	$(BIN)/gunicorn --config deploy/gunicorn.conf.py

# Browser tests need Debian's Chromium; PDF tests render pages with poppler's pdftoppm;
# WeasyPrint subsets fonts with HarfBuzz's subsetter (it warns, and the tests fail, without it);
# the rate-limit tests start a private redis-server when none runs on 127.0.0.1:6379.
system-packages:
	@command -v chromium >/dev/null && command -v pdftoppm >/dev/null && ldconfig -p | grep -q libharfbuzz-subset \
	  && command -v redis-server >/dev/null && fc-list | grep -q "Droid Sans Fallback" \
	  && fc-list | grep -q NanumGothic && fc-list | grep -q Symbola && fc-list | grep -q "Noto Sans Thai" || \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium poppler-utils \
	      libharfbuzz-subset0 redis-server fonts-droid-fallback fonts-nanum fonts-symbola fonts-noto-core >/dev/null; }
	@command -v msgfmt >/dev/null || \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null; }

# The six languages (README, "Languages"): `make messages` extracts every marked string and merges
# it into the catalogs; `make catalogs` checks them with msgfmt (no untranslated or fuzzy entry,
# placeholders intact) and compiles them for the app.
CATALOGS := $(wildcard scorekeeper/translations/*/LC_MESSAGES/messages.po)
KEYWORDS := -k _n:1,2 -k plural_forms:1,2 -k Counted:1,2 -k Phrase -k RulesError:1 -k ConfigError:1 -k ScheduleError:1 -k BidError:1 \
            -k TrickError:1 -k PlayError:1 -k OrderError:1

messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg $(KEYWORDS) --no-location --sort-output \
	  --project "Bluke Scorekeeper" --copyright-holder "Bluke Scorekeeper" \
	  -o scorekeeper/translations/messages.pot .
	$(BIN)/pybabel update -i scorekeeper/translations/messages.pot -d scorekeeper/translations \
	  --no-fuzzy-matching --ignore-obsolete --width 120

catalogs: $(STAMP)
	@set -e; for po in $(CATALOGS); do \
	  stats=$$(msgfmt --check --statistics -o /dev/null $$po 2>&1); echo "$$po: $$stats"; \
	  case "$$stats" in *untranslated*|*fuzzy*) echo "$$po: untranslated or fuzzy entries" >&2; exit 1;; esac; \
	done
	$(MAKE) compile-catalogs

# Compiling needs only Babel (in the venv), so `make run` works without gettext's msgfmt.
compile-catalogs: $(STAMP)
	$(BIN)/pybabel compile -d scorekeeper/translations

test: $(STAMP) system-packages catalogs
	$(BIN)/python -m pytest

# Code health: ruff (lint and format, Pallets rules in pyproject.toml) and mypy --strict on the package.
lint: $(STAMP)
	$(BIN)/ruff check --no-fix .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[test,bench]'
	$(BIN)/python benchmarks/engine_speed.py
