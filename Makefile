# Two commands for a newcomer: `make run` and `make test`. Everything else is set up by them.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
# The OCR model's package, without its dependencies (pyproject.toml lists them, with the
# headless OpenCV in place of the GUI one it asks for).
OCR := rapidocr_onnxruntime==1.4.4

.PHONY: install run serve test check bench load flood takeover translations clean

# The stamp file is rebuilt when pyproject.toml changes, so new pins get installed.
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip==25.3
	$(PIP) install --quiet -e '.[test]'
	$(PIP) install --quiet --no-deps $(OCR)
	touch $@

# Compiled catalogues (.mo) are built from the .po files the project keeps in git.
CATALOGUES := $(patsubst %.po,%.mo,$(wildcard webapp/translations/*/LC_MESSAGES/messages.po))

install: $(VENV)/.installed $(CATALOGUES)

webapp/translations/%/LC_MESSAGES/messages.mo: webapp/translations/%/LC_MESSAGES/messages.po $(VENV)/.installed
	$(VENV)/bin/pybabel compile -d webapp/translations -l $* --statistics

# After changing user-facing text: extract the messages and merge them into each
# language's catalogue (then translate what is new or fuzzy, and make install).
translations: $(VENV)/.installed
	$(VENV)/bin/pybabel extract -F babel.cfg -k lazy_gettext -k lazy_ngettext:1,2 --sort-by-file \
		--project=hidato --copyright-holder="Hidato" -o webapp/translations/messages.pot .
	$(VENV)/bin/pybabel update -i webapp/translations/messages.pot -d webapp/translations --no-wrap

# Serves on http://127.0.0.1:5000 (HOST=0.0.0.0 PORT=8000 make run to change that); the
# SQLite database is created in instance/ on first run, DATABASE_URL selects another.
run: install
	$(VENV)/bin/hidato db upgrade
	$(VENV)/bin/hidato serve

# Production: gunicorn with WORKERS processes (default two per core plus one) on HOST:PORT
# (default 127.0.0.1:5000); see the README for a reverse proxy, HTTPS and PostgreSQL.
serve: install
	$(VENV)/bin/hidato db upgrade
	$(VENV)/bin/gunicorn -c python:webapp.web.gunicorn_conf --no-control-socket webapp.web.wsgi:app

# Browser tests use Debian's Chromium (Playwright cannot download browsers here); the PDF
# booklet needs Pango (WeasyPrint) and its tests poppler-utils (pdfinfo, pdftotext, pdftoppm).
# Then ruff and mypy (pyproject.toml), and pytest on both cores (pytest-xdist) beside a
# throw-away PostgreSQL server (tools/with_postgres.sh): the web and storage tests run on
# SQLite and again on PostgreSQL.
test: install
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "installing chromium for the browser tests (apt-get)"; \
		SUDO=$$( [ "$$(id -u)" -ne 0 ] && command -v sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; \
	fi
	@if ! command -v pdftoppm >/dev/null || ! ls /usr/lib/*/libpango-1.0.so.0 /usr/lib/*/libharfbuzz-subset.so.0 >/dev/null 2>&1; then \
		echo "installing poppler-utils, Pango and HarfBuzz for the PDF booklets and their tests (apt-get)"; \
		SUDO=$$( [ "$$(id -u)" -ne 0 ] && command -v sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq poppler-utils libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core >/dev/null; \
	fi
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		echo "installing postgresql for the database tests (apt-get; no cluster is started)"; \
		SUDO=$$( [ "$$(id -u)" -ne 0 ] && command -v sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq postgresql-common >/dev/null && \
		$$SUDO sed -i 's/^#* *create_main_cluster *=.*/create_main_cluster = false/' \
			/etc/postgresql-common/createcluster.conf && \
		$$SUDO apt-get install -y -qq postgresql >/dev/null; \
	fi
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	bash tools/with_postgres.sh $(PY) -m pytest -n auto

# Lint and types alone (make test runs them first).
check: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

bench: install
	$(PY) bench/solve_bench.py
	$(PY) bench/paths_bench.py
	$(PY) bench/generate_bench.py
	$(PY) bench/booklet_bench.py --runs 3
	$(PY) bench/scan_bench.py
	$(PY) bench/entry_bench.py
	$(PY) bench/preview_bench.py

# About 30 s of simulated players against gunicorn on 127.0.0.1 (SQLite, then PostgreSQL
# with its durable default settings, then two gunicorn hosts on that PostgreSQL with each
# player's requests alternating between them); prints the table in the README and checks
# that every acknowledged entry was stored.
load: install
	HIDATO_PG_DURABLE=1 bash tools/with_postgres.sh $(PY) bench/load/run.py --hosts 1,2

# Two gunicorn hosts on one PostgreSQL: the host working on a job is killed with SIGKILL,
# five times; prints how soon the other host took the job over and had its result.
takeover: install
	bash tools/with_postgres.sh $(PY) bench/takeover.py

# Ordinary pages timed while 24 clients flood the solver page's Grade button (gunicorn,
# SQLite); prints the table in the README.
flood: install
	$(PY) bench/load/flood.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
