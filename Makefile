# The whole set-up on a fresh machine: `make run` starts the web app, `make test` runs every test.
# `make run` installs what playing needs (the package and its server); `make test` adds the
# development tools (pytest, mypy, ruff, Playwright, the reference engine gnubg-nn).
# `make bundle` rebuilds the page's bundles (src/backgammon/web/dist/, committed) after a change
# to its scripts or styles.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PLAY := $(VENV)/.installed-play
DEV := $(VENV)/.installed-dev
# From npm at the versions the lock file pins: axe-core, the browser tests' accessibility
# audit, and esbuild, the bundler (the target is the record npm keeps of what it installed).
NPM := tests/web/node_modules/.package-lock.json
UNCHECKED := the accessibility audits and the bundles' check will be skipped

.PHONY: run test lint bundle bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(PLAY): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[server]'
	touch $@

$(DEV): pyproject.toml $(PLAY)
	$(BIN)/pip install --quiet -e '.[dev,server]'
	touch $@

run: $(PLAY)
	$(BIN)/backgammon serve

lint: $(DEV)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy

$(NPM): tests/web/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		npm ci --prefix tests/web --no-audit --no-fund --loglevel=error \
		|| echo "warning: npm ci failed; $(UNCHECKED)" >&2; \
	else echo "warning: npm is missing; $(UNCHECKED)" >&2; fi

test: lint $(NPM)
	$(BIN)/pytest

bundle: $(PLAY) $(NPM)
	$(BIN)/python tools/bundle.py

bench: $(DEV)
	$(BIN)/python bench/rules/movegen.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis tests/web/node_modules
