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

run: install
	$(VENV)/bin/hidato --help

test: install
	$(PY) -m pytest

bench: install
	$(PY) bench/solve_bench.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
