# Quick start: `make demo` and `make test`. Both create .venv on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DEMO_SEED ?= 2026

.PHONY: demo docs test test-slow test-all test-plain-clone lint bench bench-bots bench-policy models install clean browser axe pictures

# setuptools says "Editable installation" on every editable install, as information only (its class
# is InformationOnly): nothing in the project to mend, so it is not shown.
QUIET_INSTALL := PYTHONWARNINGS="ignore:Editable installation"

$(BIN)/solrec: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(QUIET_INSTALL) $(BIN)/python -m pip install --quiet --upgrade pip
	$(QUIET_INSTALL) $(BIN)/python -m pip install --quiet -e '.[test,cluster,serve,ai,balance,tune,learn,docs]'
	touch $@

install: $(BIN)/solrec

# The main job on the default embedded database: simulate and record a game, replay it,
# validate it, print its explained score. The game is stored as demo-solo-dice-SEED and reused on
# later runs (the same seed records the same game), so the database does not pile up copies.
demo: install
	@id=demo-solo-dice-$(DEMO_SEED); \
	if $(BIN)/solrec show $$id >/dev/null 2>&1; then \
	echo "== reusing $$id, recorded by an earlier make demo"; \
	else \
	new=$$($(BIN)/solrec simulate solo-dice --games 1 --seed $(DEMO_SEED) --json | $(BIN)/python -c 'import json,sys; print(json.load(sys.stdin)["ids"][0])') && \
	$(BIN)/solrec rename $$new $$id >/dev/null && \
	echo "== recorded $$id in $$($(BIN)/python -c 'from solrec.events import default_db_path; print(default_db_path())')"; \
	fi && \
	echo "== replay $$id" && $(BIN)/solrec replay $$id && \
	echo "== validate $$id" && $(BIN)/solrec validate $$id && \
	echo "== score $$id --explain" && $(BIN)/solrec score $$id --explain && \
	echo "== solrec is installed in $(VENV): run 'source $(VENV)/bin/activate' (then 'solrec --help'), or type $(BIN)/solrec"

# The slow exhaustive checks (300 simulated Solari games per move source, 500 Solar Solitaire games
# per option, 100 Solarius Mission games per player count, each simulated and validated; the long
# fuzz runs) take the better part of an hour on 2 cores, so `make test` leaves them to `make test-slow`.
# Lint (ruff) and type-check (mypy) first: a test run on code that does not pass them fails.
# mypy reads the solrec.* namespace through .typecheck/solrec, whose entries link to the top-level folders.
lint: install
	$(BIN)/ruff check .
	$(BIN)/mypy -p solrec

# The replay pages are tested in a real browser: Debian's Chromium and ChromeDriver, headless
# (tests/pictures/test_browser.py). Installed here where missing; that needs root (as on the
# development machines and CI) and Debian's package archive. `make test` requires them: the browser
# tests fail rather than skip (SOLREC_BROWSER_TESTS=required).
browser:
	@command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1 || \
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; }

# axe-core (the npm package) for the pages' accessibility checks (tests/pictures/test_phone.py), in
# tests/axe/node_modules (not committed; tests/axe/package-lock.json pins the version). Needs npm.
axe: tests/axe/node_modules/axe-core/axe.min.js

tests/axe/node_modules/axe-core/axe.min.js: tests/axe/package.json tests/axe/package-lock.json
	cd tests/axe && npm ci --no-audit --no-fund --silent
	touch $@

# The documentation site (mkdocs.yml): docs/ built into site/ (git-ignored; open site/index.html).
# Strict: a broken link or anchor, a nav entry naming a missing page, or a page under docs/ the nav
# leaves out stops the build. A second or so. (Material's notice about its successor is not shown.)
docs: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir site

# Both cores (pytest-xdist): about 3,500 tests, the Solarius Mission ones the dearest; worksteal so
# neither core idles at the end while the other finishes a long test.
test: install lint docs browser axe
	SOLREC_BROWSER_TESTS=required $(BIN)/python -m pytest -m "not slow" -n 2 --dist worksteal

# What a person who clones the project gets: a clone of the committed tree in a folder with no
# shared/ beside it (the rule texts absent), installed from nothing and tested with `make test`.
# CI runs it after `make test` (.ci/run); the tests that read the rule texts skip with a reason.
test-plain-clone:
	@dir=$$(mktemp -d) && trap 'rm -rf "$$dir"' EXIT && \
	git clone --quiet --no-hardlinks . "$$dir/solrec" && \
	test ! -e "$$dir/shared" && \
	$(MAKE) --no-print-directory -C "$$dir/solrec" test PYTHON=$(PYTHON)

test-slow: install
	$(BIN)/python -m pytest -m slow -n 2

test-all: install
	$(BIN)/python -m pytest

bench: install
	$(QUIET_INSTALL) $(BIN)/python -m pip install --quiet -e ".[bench]"
	$(BIN)/python bench/bench_replay.py
	$(BIN)/python bench/bench_solo_dice.py
	$(BIN)/python bench/bench_solar_solitaire.py
	$(BIN)/python bench/bench_html_size.py
	$(BIN)/python bench/bench_html.py
	$(BIN)/python bench/bench_solarius_mission.py
	$(BIN)/python bench/bench_solarius_space.py
	$(BIN)/python bench/bench_cli.py
	$(BIN)/python bench/bench_simulate.py --games 10000  # the 100,000-game run: bench_simulate.py alone
	$(BIN)/python bench/bench_cluster.py --events 200000  # 1,000,000 events: bench_cluster.py alone
	$(BIN)/python bench/bench_balance.py

# Bot strength and move time (docs/ai.md): 200 seeded games per pairing, hours on 2 cores; BOT_GAMES=20 for a look.
BOT_GAMES ?= 200
bench-bots: install
	$(BIN)/python bench/bench_bots.py --games $(BOT_GAMES)

# The learned bot's shipped models (ai/models/; docs/ai.md, "The learned bot"): each trained again by the
# command it records (its solrec.json), niced, one after the other (the CPU each took: docs/ai.md, "The
# shipped models"); more steps go on from the files.
MODEL_STEPS_SOLO_DICE ?= 5000000
MODEL_STEPS_SOLI2_DUEL ?= 5000000
MODEL_STEPS_SOLI2_SOLITAIRE ?= 1000000
MODEL_STEPS_SOLAR_SOLITAIRE ?= 180224
models: install
	nice -n 10 $(BIN)/solrec train solo-dice --steps $(MODEL_STEPS_SOLO_DICE) --seed 0 --out ai/models/solo-dice.zip
	nice -n 10 $(BIN)/solrec train soli2 --option mode=duel --method afterstate --steps $(MODEL_STEPS_SOLI2_DUEL) --seed 0 --out ai/models/soli2-duel.zip
	nice -n 10 $(BIN)/solrec train soli2 --option mode=soli2-solitaire --method afterstate --steps $(MODEL_STEPS_SOLI2_SOLITAIRE) --seed 0 --out ai/models/soli2-solitaire.zip
	nice -n 10 $(BIN)/solrec train solar-solitaire --steps $(MODEL_STEPS_SOLAR_SOLITAIRE) --seed 0 --out ai/models/solar-solitaire.zip

# The learned bot against mcts (docs/ai.md, "The learned bot"): 200 seeded games per game, hours of mcts on 2 cores.
bench-policy: install
	$(BIN)/python bench/bench_policy.py --games $(BOT_GAMES) --progress

# The documentation's screenshots (README, docs/replay.md, docs/serve.md, docs/rule-changes.md), in docs/pictures/.
pictures: install browser axe
	$(BIN)/python -m tests.pictures.screenshots
	$(BIN)/python -m tests.pictures.serve_screenshots
	$(BIN)/python -m tests.pictures.bot_duel
	$(BIN)/python -m tests.pictures.balance_screenshots

clean:
	rm -rf $(VENV) build dist site *.egg-info
