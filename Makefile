# The whole set-up on a fresh machine: `make run` starts the web app, `make test` runs every test.
# `make run` installs what playing needs (the package and its server); `make test` adds the
# development tools (pytest, mypy, ruff, Playwright, the reference engine gnubg-nn).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PLAY := $(VENV)/.installed-play
DEV := $(VENV)/.installed-dev

.PHONY: run test lint bench clean

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

test: lint
	$(BIN)/pytest

bench: $(DEV)
	$(BIN)/python bench/movegen.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
