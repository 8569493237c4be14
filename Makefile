# Two commands matter: `make lab` and `make test` (`.ci/run` runs it). Both create .venv, install
# what they need (again only when pyproject.toml or a lock changes) and are safe to run any
# number of times. This file is the developer loop: the venv, the extension, the wheel, lint,
# types, tests, release and locks. workshop.mk holds the workshop kit (lab, reset-notebooks,
# wheelhouse, html); fixtures.mk what the tests run that nobody here wrote (servers, clients,
# the build's Node, Chromium).

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# What `make lab` and `make test` install is pinned in these (see "The environment" below).
LAB_LOCK := requirements/lab.lock
DEV_LOCK := requirements/dev.lock
# Install offline from a wheelhouse (`make wheelhouse`) when given (`make lab
# WHEELHOUSE=wheelhouse`) or when a complete $(WHEELHOUSE_DIR)/ is there.
WHEELHOUSE_DIR := wheelhouse
WHEELHOUSE ?= $(if $(wildcard $(WHEELHOUSE_DIR)/.complete),$(WHEELHOUSE_DIR),)
PIP_FROM = $(if $(WHEELHOUSE),--no-index --find-links "$(abspath $(WHEELHOUSE))",)
# The project's wheel, its extension prebuilt inside (see "The wheel" below; the
# wheelhouses in workshop.mk copy it).
PROJECT_VERSION := $(shell sed -n 's/^__version__ = "\(.*\)"$$/\1/p' workbench/__about__.py 2>/dev/null)
WHEEL := .cache/wheel/jupyter_mcp_workbench-$(PROJECT_VERSION)-py3-none-any.whl
# The suite on two pytest-xdist workers, a test module to a worker (its module-scoped servers,
# kernels and builds are made once): about 0.6 of one worker's time on a 2-core machine.
# Modules are handed out in collection order, which tests/conftest.py makes slowest first
# (builds, browsers, kernels), so neither worker is left running a long one alone at the end.
# PYTEST_WORKERS= runs it in one process.
PYTEST_WORKERS ?= -n 2 --dist loadscope --no-loadscope-reorder
# Bytecode is written while the tests run, even where the machine's environment sets
# PYTHONDONTWRITEBYTECODE: pytest keeps its rewritten test modules for the next run (else each
# worker rewrites all of them at every start: collection takes 16 s of CPU instead of 7.5),
# and the kernels and servers the suite starts read this checkout's workbench compiled
# (0.2 s of CPU apiece). __pycache__ is in .gitignore.
PYTEST_ENV := PYTHONDONTWRITEBYTECODE=

# Found beside this file, also when run as `make -f <checkout>/Makefile` from elsewhere.
HERE := $(dir $(lastword $(MAKEFILE_LIST)))
include $(HERE)fixtures.mk $(HERE)workshop.mk

.DEFAULT_GOAL := help
.PHONY: help test test-fast lint format typecheck test-latest test-lowest lock dist labextension clean \
	docs docs-build test-pythons collect-tests

# What the tests use besides the venv, made side by side (independent downloads, about a
# minute off a fresh clone's run). The workshop tests install from the test wheelhouse and
# export HTML with $(HTML_ASSETS) (workshop.mk), so they download nothing. One a line.
TEST_NEEDS := servers test-servers clients
TEST_NEEDS += $(TEST_WHEELHOUSE)/.complete
TEST_NEEDS += $(HTML_ASSETS)/.complete

# Lint and type checks (CPU) run beside the downloads (network); the docs build is one of the
# suite's tests (tests/test_docs.py: the same sphinx-build -W), not run twice.
test: $(VENV)/.installed-dev labextension browser
	$(MAKE) --no-print-directory -j6 $(TEST_NEEDS) lint typecheck collect-tests
	@# The bridge's tests on 3.10 and 3.13 run beside the suite, whose workers mostly wait on
	@# kernels and browsers (about half the two cores busy); their verdict is printed after it.
	$(PYTEST_ENV) $(BIN)/python scripts/test_pythons.py $(TEST_PYTHONS_FLAGS) > .cache/test-pythons.log 2>&1 & \
	  pythons=$$!; $(PYTEST_ENV) $(BIN)/pytest $(PYTEST_WORKERS); suite=$$?; wait $$pythons; other=$$?; \
	  cat .cache/test-pythons.log; test $$suite -eq 0 && test $$other -eq 0

# The suite collected once, beside the downloads (their CPU is mostly free): pytest keeps the
# test modules it rewrote (PYTEST_ENV), so the two workers of `make test` read them instead of
# each rewriting all of them (their collection: 16 s of CPU apiece, 7.5 s when kept), and a
# test module that no longer imports fails here, before the long run.
collect-tests: $(VENV)/.installed-dev
	@mkdir -p .cache
	$(PYTEST_ENV) $(BIN)/pytest --collect-only -qq -p no:cacheprovider > .cache/collect-tests.log \
	  2>&1 || { tail -40 .cache/collect-tests.log; exit 1; }

# About a minute: no kernel, no browser, no build (the wheel and wheelhouse tests build and
# install venvs, and need what `make test` makes first) and no integration test (real servers
# and clients in processes of their own, seconds each).
# The bridge's version-sensitive tests on the oldest and newest Python pyproject claims (3.10,
# 3.13), side by side, when those interpreters are found (PATH or pyenv); a missing one is one
# loud line, and TEST_PYTHONS_FLAGS=--strict makes it an error. make test runs it last.
TEST_PYTHONS_FLAGS ?=
test-pythons: $(VENV)/.installed-dev
	$(BIN)/python scripts/test_pythons.py $(TEST_PYTHONS_FLAGS)

test-fast: $(VENV)/.installed-dev labextension servers clients
	$(PYTEST_ENV) $(BIN)/pytest $(PYTEST_WORKERS) -m "not kernel and not browser and not build and not integration"

# Python (ruff) and the extension's TypeScript (eslint, then tsc --noEmit).
lint: $(VENV)/.installed-dev labextension
	$(BIN)/ruff check workbench tests benchmarks scripts docs/conf.py
	$(BIN)/ruff format --check workbench tests benchmarks scripts docs/conf.py
	cd $(LABEXT) && $(JLPM) lint

format: $(VENV)/.installed-dev
	$(BIN)/ruff check --fix workbench tests benchmarks scripts docs/conf.py
	$(BIN)/ruff format workbench tests benchmarks scripts docs/conf.py

typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy

# The documentation site (docs/: Sphinx, MyST, the notebooks as pages, the API from the
# docstrings), built offline with warnings as errors; `make docs` serves it on 127.0.0.1.
DOCS_HTML := .cache/docs/html
DOCS_PORT ?= 8000

docs-build: $(VENV)/.installed-dev
	$(BIN)/sphinx-build -W --keep-going -q -b html docs $(DOCS_HTML)

docs: docs-build
	@echo "==> The documentation: http://127.0.0.1:$(DOCS_PORT)/ (Ctrl+C stops it)"
	$(BIN)/python -m http.server $(DOCS_PORT) --bind 127.0.0.1 --directory $(DOCS_HTML)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache docs/notebooks docs/_build
	rm -rf $(LABEXT)/node_modules $(LABEXT)/lib $(LABEXT)/tsconfig.tsbuildinfo workbench/labextension

# Every public target, one line each (tests/test_makefile.py checks none is missing).
help:
	@echo "make lab        set up and open JupyterLab on $(START), a working copy of notebooks/"
	@echo "make lab-install  everything make lab installs, without starting Lab"
	@echo "make reset-notebooks  overwrite the working copies in $(WORKSHOP)/ with notebooks/"
	@echo "make wheelhouse download everything make lab installs into $(WHEELHOUSE_DIR)/ (then offline)"
	@echo "make html NOTEBOOK=path.ipynb  export a run notebook to one HTML file that works offline"
	@echo "make test       set up and run lint, type checks and every test (kernel and browser tests included)"
	@echo "make test-fast  the quick tests: no kernel, browser, build or integration test (about a minute)"
	@echo "make test-pythons  the bridge's tests on Python 3.10 and 3.13 (when installed)"
	@echo "make collect-tests  collect the suite once, keeping pytest's rewritten modules (make test does)"
	@echo "make test-latest  the whole suite in a throwaway venv with the newest versions pyproject allows"
	@echo "make test-lowest  the quick tests against the oldest versions pyproject allows"
	@echo "make docs       build the documentation site (docs/) and serve it on 127.0.0.1:$(DOCS_PORT)"
	@echo "make docs-build build it into $(DOCS_HTML), offline, warnings as errors"
	@echo "make lint       ruff, then eslint and tsc over the extension"
	@echo "make format     ruff fix and format"
	@echo "make typecheck  mypy, strict"
	@echo "make lock       refresh the lock files in requirements/ (then make test, then commit them)"
	@echo "make dist       build the sdist and wheel into dist/, twine check them, smoke-test the wheel"
	@echo "make servers    install the real MCP servers the tests run into $(SERVERS)"
	@echo "make test-servers  the servers only the tests run, into $(SERVERS)"
	@echo "make clients    install the real MCP clients the tests run into $(CLIENTS)"
	@echo "make browser    install Debian's Chromium for the browser tests (when missing)"
	@echo "make node       make sure a node can build the extension (Node $(BUILD_NODE_VERSION) from npm if too old)"
	@echo "make which-build-node  which node builds the extension"
	@echo "make labextension  build the JupyterLab extension (when its sources changed)"
	@echo "make clean      remove $(VENV), the tool caches and the extension's build"

# The JupyterLab extension (labextension/, TypeScript) is built into workbench/labextension/
# and linked into the venv's share/jupyter/labextensions/, so Lab and Notebook 7 load it; the
# wheel ships the same build, so people installing it need no node. The node that builds it
# is the system's or Node 22 from npm (fixtures.mk, `make node`).
LABEXT := labextension
LABEXT_BUILT := workbench/labextension/static/style.js
LABEXT_SOURCES := $(shell find $(LABEXT)/src $(LABEXT)/style -type f 2>/dev/null) \
                  $(LABEXT)/package.json $(LABEXT)/yarn.lock $(LABEXT)/tsconfig.json \
                  $(LABEXT)/install.json $(LABEXT)/scripts/generate-types.mjs \
                  $(wildcard workbench/display/schemas/*.schema.json)
LABEXT_LINK := $(VENV)/share/jupyter/labextensions/mcp-workbench
JLPM := PATH="$(abspath $(BIN)):$(BUILD_NODE_PATH)$$PATH" $(abspath $(BIN))/jlpm

# Rebuilt when a source changed (a fresh clone's pip install has just built it: nothing to do),
# then linked into the venv in place of the copy an editable install leaves there.
labextension: $(LABEXT_BUILT)
	@if [ "$$(readlink $(LABEXT_LINK))" != "$(CURDIR)/workbench/labextension" ]; then \
	  rm -rf $(LABEXT_LINK) && mkdir -p $(dir $(LABEXT_LINK)) && \
	  ln -s $(CURDIR)/workbench/labextension $(LABEXT_LINK); \
	fi

# Announced: on a fresh clone it downloads the extension's npm packages (yarn, about 100 MB)
# and builds (rspack), a minute or so in all.
$(LABEXT_BUILT): $(LABEXT_SOURCES) | $(VENV)/.deps-lab node
	@echo "==> Building the JupyterLab extension ($(LABEXT)/ into workbench/labextension/) with node"
	@echo "    $$(PATH="$(BUILD_NODE_PATH)$$PATH" node --version): its npm packages (yarn; a minute on a"
	@echo "    fresh clone), then the build (rspack, about 30 s)."
	cd $(LABEXT) && $(JLPM) install --immutable && $(JLPM) build:prod
	touch $@

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
	@echo "==> Creating $(VENV) and updating its pip (about 20 s, quietly)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet $(PIP_FROM) --upgrade pip

# The lock files in requirements/ (uv pip compile output, one universal lock for every Python
# the package supports) give a fresh clone exactly the versions that last passed. `make lock`
# refreshes them; `make test-latest` tries the newest versions pyproject.toml's ranges allow.
# The checkout itself is installed last, editable, without build isolation (hatchling and the
# extension builder come from the lock too).
LOCK_ARGS := --universal --python-version 3.10 --annotation-style line --quiet
INSTALL_SELF = SKIP_JUPYTER_BUILDER=1 $(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
FROM_INDEX = From the package index ('make wheelhouse' once makes this work offline).
FROM_WHEELHOUSE = From $(WHEELHOUSE)/, no network: the project as 'make wheelhouse' built it \
                   (delete $(WHEELHOUSE)/ to install this checkout instead).
FROM_WHERE = $(if $(WHEELHOUSE),$(FROM_WHEELHOUSE),$(FROM_INDEX))

# The dependencies, the long step, announced before it starts (downloads show pip's progress;
# unpacking them into the venv prints nothing for about a minute).
$(VENV)/.deps-lab: pyproject.toml $(LAB_LOCK) | $(BIN)/python
	@echo "==> Installing JupyterLab and the workbench's dependencies into $(VENV), the versions"
	@echo "    pinned in $(LAB_LOCK) ($$(sed -n 's/==.*//p' $(LAB_LOCK) | sort -u | wc -l) packages, about 400 MB): downloads show"
	@echo "    progress, then pip unpacks them for about a minute without a word."
	@echo "    $(FROM_WHERE)"
	$(BIN)/python -m pip install --progress-bar on $(PIP_FROM) -r $(LAB_LOCK)
	touch $@

# The test venv is installed by uv, at the lock's own version of uv: the same packages as pip
# installs from the lock (compared with pip freeze), bytecode compiled as pip does, in about
# 20 s instead of pip's 40-75 s on a fresh clone (make test's first step). `make lab` keeps pip,
# which the workshop's wheelhouse and its instructions are written for.
$(VENV)/.deps-dev: pyproject.toml $(DEV_LOCK) | $(BIN)/python
	@echo "==> Installing the test and development tools into $(VENV), the versions pinned in"
	@echo "    $(DEV_LOCK) ($$(sed -n 's/==.*//p' $(DEV_LOCK) | sort -u | wc -l) packages, about 560 MB), with uv (about 20 s)."
	$(BIN)/python -m pip install --quiet "$$(sed -n 's/^\(uv==[^ ;]*\).*/\1/p' $(DEV_LOCK))"
	$(BIN)/uv pip install --python $(BIN)/python --compile-bytecode -r $(DEV_LOCK)
	touch $@ $(VENV)/.deps-lab

# From the index: the locked dependencies, the extension built (announced by its own rule), then
# the checkout editable. From a wheelhouse: the project's wheel as `make wheelhouse` built it,
# its extension prebuilt, the lock as constraints, nothing fetched and no node needed.
ifneq ($(WHEELHOUSE),)
$(VENV)/.installed-lab: pyproject.toml $(LAB_LOCK) | $(BIN)/python
	@echo "==> Installing the workbench with JupyterLab into $(VENV) (about 400 MB, about a"
	@echo "    minute, no progress shown while pip unpacks)."
	@echo "    $(FROM_WHERE)"
	$(BIN)/python -m pip install --progress-bar on $(PIP_FROM) -c $(LAB_LOCK) \
	  "jupyter-mcp-workbench[lab]"
	touch $@
else
$(VENV)/.installed-lab: $(VENV)/.deps-lab $(LABEXT_BUILT)
	$(INSTALL_SELF)
	touch $@
endif

$(VENV)/.installed-dev: $(VENV)/.deps-dev $(LABEXT_BUILT)
	$(INSTALL_SELF)
	touch $@ $(VENV)/.installed-lab

# The wheel: made again when a file of the package, pyproject.toml or the extension's build
# changes (hatchling finds the extension built and builds nothing else). The wheelhouses copy it.
PACKAGE_FILES := $(shell find workbench -path workbench/labextension -prune -o -name __pycache__ -prune \
                   -o -type f -print 2>/dev/null)
$(WHEEL): pyproject.toml $(PACKAGE_FILES) $(LABEXT_BUILT) | $(VENV)/.deps-lab
	rm -rf $(dir $@)
	$(BIN)/python -m pip wheel --progress-bar on --no-deps --no-build-isolation -w $(dir $@) .
	@test -f $@ || { echo "error: pip wheel made $$(ls $(dir $@)), not $(notdir $@)" >&2; exit 1; }

# The release files: sdist and wheel into dist/ (the extension prebuilt inside), checked by
# twine, then the wheel installed with JupyterLab (the lock's versions) into a clean venv, where
# scripts/smoke_test.py lists the extension, loads the workbench in a kernel and calls the demo.
DIST_VENV := .cache/venv-dist
dist: $(VENV)/.installed-dev labextension
	@if grep -q OWNER/REPOSITORY pyproject.toml; then echo "note: pyproject.toml's [project.urls]" \
	  "still say OWNER/REPOSITORY: set the repository's address before uploading (CONTRIBUTING)."; fi
	rm -rf dist $(DIST_VENV)
	$(BIN)/python -m build --no-isolation --outdir dist .
	$(BIN)/twine check --strict dist/*
	@echo "==> Installing the wheel with JupyterLab into a clean venv ($(DIST_VENV), about a minute)"
	$(PYTHON) -m venv $(DIST_VENV)
	$(DIST_VENV)/bin/python -m pip install --quiet -c $(LAB_LOCK) "$$(ls dist/*.whl)[lab]"
	$(DIST_VENV)/bin/python scripts/smoke_test.py
	@echo "==> dist/: $$(ls dist | tr '\n' ' ')- checked, and the wheel works in a clean venv."

# Refreshes the locks from pyproject.toml (newest versions inside its ranges); the lab lock is
# constrained by the dev lock, so both install the same versions. Commit the result on its own,
# after `make test` has passed on it.
lock: $(VENV)/.installed-dev
	$(BIN)/uv pip compile $(LOCK_ARGS) pyproject.toml requirements/build.in --extra dev \
	  --upgrade -o $(DEV_LOCK)
	$(BIN)/uv pip compile $(LOCK_ARGS) pyproject.toml requirements/build.in --extra lab \
	  -c $(DEV_LOCK) -o $(LAB_LOCK)
	@echo "==> $(DEV_LOCK), $(LAB_LOCK) refreshed: run 'make test', then commit them on their own."

# Drift, found on purpose (not in CI): a throwaway venv with the newest versions the ranges in
# pyproject.toml allow, no lock, then the whole suite against it. Outside the checkout: `make
# test` links the extension into the venv it tests, and hatchling, walking the checkout for the
# sdist, would meet that link first and leave the real folder out.
SCRATCH ?= $(or $(TMPDIR),/tmp)/jupyter-mcp-workbench-$(notdir $(CURDIR))
LATEST_VENV := $(SCRATCH)/venv-latest
test-latest:
	rm -rf $(LATEST_VENV)
	$(PYTHON) -m venv $(LATEST_VENV)
	$(LATEST_VENV)/bin/python -m pip install --quiet --upgrade pip
	@echo "==> The newest versions inside pyproject.toml's ranges into $(LATEST_VENV) (no lock)"
	$(LATEST_VENV)/bin/python -m pip install --progress-bar on --upgrade -r requirements/build.in \
	  -e ".[dev]"
	$(LATEST_VENV)/bin/python -m pip list --format=freeze > $(LATEST_VENV)/versions.txt
	@echo "==> $(LATEST_VENV)/versions.txt; what differs from $(DEV_LOCK):"
	@$(LATEST_VENV)/bin/python scripts/lock_drift.py $(DEV_LOCK) $(LATEST_VENV)/versions.txt
	touch $(LATEST_VENV)/.deps-dev $(LATEST_VENV)/.deps-lab $(LATEST_VENV)/.installed-dev \
	  $(LATEST_VENV)/.installed-lab
	$(MAKE) --no-print-directory test VENV=$(LATEST_VENV)

# The lower bounds, checked on purpose (not in CI): the oldest versions pyproject.toml's ranges
# allow for the workbench's own dependencies (uv's lowest-direct resolution), then the quick
# tests against them. A failure means a lower bound to raise.
LOWEST_VENV := .cache/venv-lowest
test-lowest:
	rm -rf $(LOWEST_VENV)
	$(BIN)/uv pip compile --quiet --resolution lowest-direct pyproject.toml requirements/build.in \
	  --extra dev -o $(LOWEST_VENV).txt
	$(PYTHON) -m venv $(LOWEST_VENV)
	$(LOWEST_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(LOWEST_VENV)/bin/python -m pip install --progress-bar on -r $(LOWEST_VENV).txt
	SKIP_JUPYTER_BUILDER=1 $(LOWEST_VENV)/bin/python -m pip install --quiet --no-deps \
	  --no-build-isolation -e .
	$(LOWEST_VENV)/bin/pytest -m "not kernel and not browser and not build and not integration"
