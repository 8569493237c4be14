# Two commands matter: `make lab` and `make test`. Both create .venv, install what they need
# (again only when pyproject.toml changes) and are safe to run any number of times.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
NOTEBOOK ?= notebooks/quickstart.ipynb

.PHONY: lab test lint format typecheck test-fast clean help

help:
	@echo "make lab        set up and open JupyterLab on $(NOTEBOOK)"
	@echo "make test       set up and run lint, type checks and every test (kernel tests included)"
	@echo "make test-fast  only the tests that need no kernel or browser"
	@echo "make lint | format | typecheck | clean"

lab: $(VENV)/.installed-lab
	$(BIN)/jupyter lab --ServerApp.ip=127.0.0.1 $(NOTEBOOK)

test: $(VENV)/.installed-dev
	$(MAKE) --no-print-directory lint typecheck
	$(BIN)/pytest

test-fast: $(VENV)/.installed-dev
	$(BIN)/pytest -m "not kernel and not browser"

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check workbench tests benchmarks
	$(BIN)/ruff format --check workbench tests benchmarks

format: $(VENV)/.installed-dev
	$(BIN)/ruff check --fix workbench tests benchmarks
	$(BIN)/ruff format workbench tests benchmarks

typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# The environment. Debian's python3 may lack venv (package python3-venv): install it when
# we are root, otherwise say how.
$(BIN)/python:
	@if ! $(PYTHON) -c 'import ensurepip, venv' >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv; \
	  else \
	    echo "error: $(PYTHON) cannot create virtual environments;" \
	         "run 'sudo apt-get install python3-venv' and try again." >&2; exit 1; \
	  fi; \
	fi
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-lab: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[lab]"
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@ $(VENV)/.installed-lab
