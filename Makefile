# Quick start: `make demo` and `make test`. Both create .venv on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DEMO_SEED ?= 2026

.PHONY: demo test test-slow test-all lint bench install clean

$(BIN)/solrec: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

install: $(BIN)/solrec

# The main job on the default embedded database: simulate and record a game, replay it,
# validate it, print its explained score.
demo: install
	@id=$$($(BIN)/solrec simulate solo-dice --games 1 --seed $(DEMO_SEED) --json | $(BIN)/python -c 'import json,sys; print(json.load(sys.stdin)["ids"][0])') && \
	echo "== recorded $$id in $$($(BIN)/python -c 'from solrec.events import default_db_path; print(default_db_path())')" && \
	echo "== replay $$id" && $(BIN)/solrec replay $$id && \
	echo "== validate $$id" && $(BIN)/solrec validate $$id && \
	echo "== score $$id --explain" && $(BIN)/solrec score $$id --explain

# The slow exhaustive checks (300 simulated Solari games per move source, 500 Solar Solitaire games
# per option, each simulated and validated) take about twelve minutes on 2 cores together, so
# `make test` leaves them to `make test-slow`.
# Lint (ruff) and type-check (mypy) first: a test run on code that does not pass them fails.
# mypy reads the solrec.* namespace through .typecheck/solrec, whose entries link to the top-level folders.
lint: install
	$(BIN)/ruff check .
	$(BIN)/mypy -p solrec

test: install lint
	$(BIN)/python -m pytest -m "not slow"

test-slow: install
	$(BIN)/python -m pytest -m slow

test-all: install
	$(BIN)/python -m pytest

bench: install
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python bench/bench_replay.py
	$(BIN)/python bench/bench_solo_dice.py
	$(BIN)/python bench/bench_solar_solitaire.py

clean:
	rm -rf $(VENV) build dist *.egg-info
