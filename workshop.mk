# The workshop kit: `make lab`, `make reset-notebooks`, `make wheelhouse` and `make html`, and
# the wheelhouse `make test` builds for the workshop tests. Included by the Makefile (the venv,
# the extension and the project's wheel are made there).

# `make lab` serves the repository (README in Lab's file browser) and opens working copies of
# the notebooks in $(WORKSHOP)/ (git-ignored): autosave and File > New write there, never into
# notebooks/. A copy is made once, when missing, and never overwritten; `make reset-notebooks`
# does that on purpose.
WORKSHOP := workshop
WORKSHOP_FILES := $(patsubst notebooks/%,$(WORKSHOP)/%,\
                    $(shell find notebooks -type f -not -path '*/.ipynb_checkpoints/*' 2>/dev/null))
START := $(WORKSHOP)/quickstart.ipynb
# Jupyter refuses to run as root (containers, Binder-like machines) unless told to.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)
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

# `make html`: the npm builds an offline page needs (require.js, the widget manager that draws
# saved widget state, anywidget's AMD module, the version of the Python anywidget's), unpacked
# at make time into $(HTML_ASSETS) and put inside each exported file; exports go to $(EXPORTS)/.
REQUIREJS_VERSION := 2.3.8
HTML_MANAGER_VERSION := 1.0.15
ANYWIDGET_JS_VERSION := 0.11.0
HTML_NPM := requirejs@$(REQUIREJS_VERSION) @jupyter-widgets/html-manager@$(HTML_MANAGER_VERSION) \
            anywidget@$(ANYWIDGET_JS_VERSION)
HTML_PACKS := requirejs-$(REQUIREJS_VERSION).tgz \
              jupyter-widgets-html-manager-$(HTML_MANAGER_VERSION).tgz \
              anywidget-$(ANYWIDGET_JS_VERSION).tgz
HTML_PINS := $(REQUIREJS_VERSION)-$(HTML_MANAGER_VERSION)-$(ANYWIDGET_JS_VERSION)
HTML_ASSETS ?= .cache/html/$(HTML_PINS)
EXPORTS := exports
NOTEBOOK ?=

# The wheelhouse the workshop tests install from: the dependencies' wheels, downloaded again
# only when the lock, pyproject.toml or a pin changes, and the project's wheel, copied in
# whenever it is built again.
TEST_WHEELHOUSE := .cache/wheelhouse
TEST_WHEELHOUSE_DEPS := .cache/wheelhouse-deps
TEST_WHEELHOUSE_PINS := time-$(TIME_SERVER_VERSION)-everything-$(EVERYTHING_VERSION)-apps-$(BASIC_APP_VERSION)-$(BUDGET_APP_VERSION)-html-$(HTML_PINS)
# What a wheelhouse's .complete says: the wheels are for this Python version and platform.
PYTHON_PLATFORM = $(BIN)/python -c 'import sys, sysconfig; print("Python", sys.version.split()[0], sysconfig.get_platform())'

.PHONY: lab lab-install reset-notebooks wheelhouse html

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

# $(call wheelhouse-downloads,<folder>), <folder> holding the project's wheel: every wheel it
# and JupyterLab need (the lock's versions), pip, mcp-server-time's wheels (its own venv:
# resolved apart), server-everything's and the Apps servers' node_modules as tarballs and `make
# html`'s npm packs. Always from the index, wheels only (--only-binary): nothing gets built on
# the workshop's machines. The npm parts run beside the wheels (independent downloads into
# folders of their own: about 20 s off); the recipe fails if any part does.
define wheelhouse-downloads
@echo "==> server-everything $(EVERYTHING_VERSION) and the MCP Apps servers (npm, --ignore-scripts)" \
  "packed as $(EVERYTHING_TARBALL) and $(APP_SERVERS_TARBALL), beside the wheels"
{ npm install --ignore-scripts --no-audit --no-fund --prefix $(1)/npm \
    @modelcontextprotocol/server-everything@$(EVERYTHING_VERSION) && \
  tar -czf $(1)/$(EVERYTHING_TARBALL) -C $(1)/npm . && rm -rf $(1)/npm; } & everything=$$!; \
{ npm install --ignore-scripts --no-audit --no-fund --prefix $(1)/apps \
    @modelcontextprotocol/server-basic-vanillajs@$(BASIC_APP_VERSION) \
    @modelcontextprotocol/server-budget-allocator@$(BUDGET_APP_VERSION) && \
  tar -czf $(1)/$(APP_SERVERS_TARBALL) -C $(1)/apps . && rm -rf $(1)/apps; } & apps=$$!; \
{ cd $(1) && npm pack --silent $(HTML_NPM) >/dev/null; } & html=$$!; \
$(BIN)/python -m pip download --progress-bar on --only-binary :all: -d $(1) \
  -c $(LAB_LOCK) pip "$$(ls $(1)/jupyter_mcp_workbench-*.whl)[lab]" && \
$(BIN)/python -m pip download --progress-bar on --only-binary :all: -d $(1) \
  mcp-server-time==$(TIME_SERVER_VERSION); wheels=$$?; \
wait $$everything; everything=$$?; wait $$apps; apps=$$?; wait $$html; html=$$?; \
test $$wheels -eq 0 && test $$everything -eq 0 && test $$apps -eq 0 && test $$html -eq 0
endef

# The instructor's USB stick: every wheel `make lab` installs (the project's own too, its
# extension prebuilt) and the MCP servers, into $(WHEELHOUSE_DIR).partial/ first, so an
# interrupted download never passes for a wheelhouse. `make lab` then installs from it with no
# network. Wheels are for this platform and Python version.
wheelhouse: WHEELHOUSE =
wheelhouse: $(WHEEL) | $(VENV)/.installed-lab
	@echo "==> Downloading every wheel 'make lab' installs into $(WHEELHOUSE_DIR)/ (about 95 MB;"
	@echo "    a minute or two, less when pip's cache has them), for Python $$($(BIN)/python -c \
	  'import sys, sysconfig; print(sys.version.split()[0], "on", sysconfig.get_platform())')"
	rm -rf $(WHEELHOUSE_DIR).partial && mkdir -p $(WHEELHOUSE_DIR).partial
	cp $(WHEEL) $(WHEELHOUSE_DIR).partial/
	$(call wheelhouse-downloads,$(WHEELHOUSE_DIR).partial)
	$(PYTHON_PLATFORM) > $(WHEELHOUSE_DIR).partial/.complete
	rm -rf $(WHEELHOUSE_DIR) && mv $(WHEELHOUSE_DIR).partial $(WHEELHOUSE_DIR)
	@echo "==> $(WHEELHOUSE_DIR)/: $$(ls $(WHEELHOUSE_DIR) | wc -l) files, $$(du -sh $(WHEELHOUSE_DIR) | cut -f1)." \
	  "'make lab' now installs from it with no network (copy the repository with it)."

# The test wheelhouse in two steps. The downloads (a minute or two), keyed by the pins in the
# stamp's name and made again when the lock or pyproject.toml (the wheel's dependencies) or
# this file change; the project's wheel only resolves them and is left out.
$(TEST_WHEELHOUSE_DEPS)/.downloaded-$(TEST_WHEELHOUSE_PINS): pyproject.toml $(LAB_LOCK) $(HERE)workshop.mk \
                                                            | $(WHEEL)
	rm -rf $(TEST_WHEELHOUSE_DEPS) && mkdir -p $(TEST_WHEELHOUSE_DEPS)
	cp $(WHEEL) $(TEST_WHEELHOUSE_DEPS)/
	$(call wheelhouse-downloads,$(TEST_WHEELHOUSE_DEPS))
	rm $(TEST_WHEELHOUSE_DEPS)/jupyter_mcp_workbench-*.whl
	touch $@

# Then, whenever the project's wheel is built again, the wheelhouse itself: the downloads
# (hard links) and that wheel, in a second.
$(TEST_WHEELHOUSE)/.complete: $(TEST_WHEELHOUSE_DEPS)/.downloaded-$(TEST_WHEELHOUSE_PINS) $(WHEEL)
	rm -rf $(TEST_WHEELHOUSE) && mkdir -p $(TEST_WHEELHOUSE)
	cp -l $(TEST_WHEELHOUSE_DEPS)/* $(TEST_WHEELHOUSE)/
	cp $(WHEEL) $(TEST_WHEELHOUSE)/
	$(PYTHON_PLATFORM) > $@

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
	  cd $(HTML_ASSETS) && npm pack --silent $(HTML_NPM) >/dev/null)
	tar -xzOf $(HTML_ASSETS)/requirejs-$(REQUIREJS_VERSION).tgz package/require.js > $(HTML_ASSETS)/require.js
	tar -xzOf $(HTML_ASSETS)/jupyter-widgets-html-manager-$(HTML_MANAGER_VERSION).tgz \
	  package/dist/embed-amd.js > $(HTML_ASSETS)/embed-amd.js
	tar -xzf $(HTML_ASSETS)/jupyter-widgets-html-manager-$(HTML_MANAGER_VERSION).tgz \
	  -C $(HTML_ASSETS) --strip-components=2 --wildcards 'package/dist/*.woff2'
	tar -xzOf $(HTML_ASSETS)/anywidget-$(ANYWIDGET_JS_VERSION).tgz package/dist/index.js > $(HTML_ASSETS)/anywidget.js
	touch $@
