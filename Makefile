# Two commands for a newcomer: `make run` and `make test`. Everything else is set up by them.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip

.PHONY: install run test bench clean

# The stamp file is rebuilt when pyproject.toml changes, so new pins get installed.
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip==25.3
	$(PIP) install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed

# Serves on http://127.0.0.1:5000 (HOST=0.0.0.0 PORT=8000 make run to change that); the
# SQLite database is created in instance/ on first run, DATABASE_URL selects another.
run: install
	$(VENV)/bin/hidato serve

# Browser tests use Debian's Chromium (Playwright cannot download browsers here).
test: install
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "installing chromium for the browser tests (apt-get)"; \
		SUDO=$$( [ "$$(id -u)" -ne 0 ] && command -v sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; \
	fi
	$(PY) -m pytest

bench: install
	$(PY) bench/solve_bench.py
	$(PY) bench/paths_bench.py
	$(PY) bench/generate_bench.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
