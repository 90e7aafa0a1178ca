# The whole set-up on a fresh machine: `make run` starts the web app, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench clean

$(BIN)/backgammon: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,server]'
	touch $@

run: $(BIN)/backgammon
	$(BIN)/backgammon serve

lint: $(BIN)/backgammon
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

bench: $(BIN)/backgammon
	$(BIN)/python bench/movegen.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
