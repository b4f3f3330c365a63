# Helixsite. `make run` starts everything; `make test` runs the suite.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.requirements-installed

export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: install run test test-fast lint bench chromium redis node-client config-docs

install: $(STAMP)

$(STAMP): requirements.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else "Helixsite needs Python 3.11 (found " + sys.version.split()[0] + "); set PYTHON=/path/to/python3.11")'
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	@touch $(STAMP)

run: install
	$(PY) manage.py serve

# The suite runs after the lint: CI enforces the style, the import contracts and the types.
# Two processes (pytest-xdist): much of the suite waits on servers, workers and browsers it
# starts. Each process has its own test database and takes tests in the collection's order, in
# which every test that commits (and so empties the tables after it) comes after those that
# roll back: the rows migrations make (reserved workspaces, schedules) are there for them.
# Each process is handed a few tests at a time (--maxschedchunk), not a quarter of what is left:
# the suite's tests last from milliseconds to minutes, and a large share of long ones handed to
# one process kept it busy minutes after the other had run out of tests.
TEST_PROCESSES ?= 2
XDIST := -n $(TEST_PROCESSES) --dist load --maxschedchunk 4
test: lint chromium redis node-client
	$(PY) -m pytest $(XDIST) --durations=20 $(PYTEST_ARGS)

# The edit loop: the suite without the tests marked slow (servers, workers, browsers, restores).
# CI and `make test` run everything.
test-fast: install node-client
	$(PY) -m pytest $(XDIST) -m "not slow" $(PYTEST_ARGS)

# Browser tests drive Debian's Chromium through Playwright (Playwright's own browser download is not used).
chromium:
	@command -v chromium >/dev/null || { echo "Installing Debian's chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; }

# The Redis broker's tests (tests/helixsite/test_redis_broker.py) start Debian's redis-server on a
# free loopback port of their own; the system service the package sets up is not used.
redis:
	@command -v redis-server >/dev/null || { echo "Installing Debian's redis-server for the Redis broker tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server; }

# mem0's npm client, for tests/mem0/test_node_client.py: the version its lockfile pins, installed
# again only when the lockfile changes (tests/mem0/node/.npmrc leaves out the client's peer
# dependencies, its own storage backends, and runs no install scripts).
NODE_CLIENT := tests/mem0/node
NODE_STAMP := $(NODE_CLIENT)/node_modules/.installed
node-client: $(NODE_STAMP)

$(NODE_STAMP): $(NODE_CLIENT)/package.json $(NODE_CLIENT)/package-lock.json $(NODE_CLIENT)/.npmrc
	@command -v node >/dev/null && command -v npm >/dev/null || { echo "make test needs Node 20 and npm (for mem0's npm client's test): install them (Debian: apt-get install nodejs npm)"; exit 1; }
	@test "$$(node -p 'process.versions.node.split(".")[0]')" -ge 20 || { echo "make test needs Node 20 or newer (found $$(node --version))"; exit 1; }
	cd $(NODE_CLIENT) && npm ci --silent
	@touch $(NODE_STAMP)

# ruff (rules and formatting), import-linter (imports point one way: pyproject.toml's
# contracts) and mypy with the Django and DRF stubs over rbac/ and memory/.
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache
	$(VENV)/bin/mypy

bench: install
	$(PY) -m bench $(BENCH_ARGS)

# docs/configuration.md's tables and helixsite/settings/registered.py, written again from
# helixsite/settings/registry.py (tests check they are current): adding a setting is its registry entry.
config-docs: install
	$(PY) -m helixsite.settings.reference
