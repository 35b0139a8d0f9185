# kpart — make demo (install + main job on the flights data), make test (install + lint + suite),
# make fuzz (every property and fuzz test with a fresh seed and more examples)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install demo test fuzz bench lint clean browser docs-img

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[spark,test]'
	touch $(STAMP)

demo: install
	$(BIN)/kpart report --out kpart-report

lint: install
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy

# CI=true (set by the CI machine, or `make test CI=true`) reaches pytest: derandomized hypothesis.
# WORKERS pytest-xdist processes (make test WORKERS=1: one process); every Spark test runs in one of
# them (tests/conftest.py), so a run has one SparkSession.
WORKERS ?= 2
test: install lint $(if $(filter true,$(CI)),browser)
	CI=$(CI) $(BIN)/python -m pytest -q -n $(WORKERS) --dist loadgroup src tests

# Property tests (marked `hypothesis` by its plugin) and tests/fuzz, random from a fresh seed that
# is printed first (reproduce a run: make fuzz SEED=N), FUZZ_SCALE times the CI example counts.
FUZZ_SCALE ?= 5
fuzz: install
	@seed=$${SEED:-$$($(BIN)/python -c 'import secrets; print(secrets.randbits(32))')}; \
	echo "hypothesis seed: $$seed (reproduce: make fuzz SEED=$$seed FUZZ_SCALE=$(FUZZ_SCALE))"; \
	KPART_FUZZ_SCALE=$(FUZZ_SCALE) $(BIN)/python -m pytest -q tests -m "hypothesis or fuzz" \
		-p no:cacheprovider --hypothesis-profile=fuzz --hypothesis-seed=$$seed

# Debian's chromium for the report's browser test (skipped, not failed, without it unless CI=true)
browser:
	command -v chromium >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)

# docs/img/report.png: the demo report (make demo output if present) rendered by the browser test code
docs-img: install browser
	$(BIN)/python docs/make_screenshot.py docs/img/report.png $(if $(wildcard kpart-report/summary.json),--summary kpart-report/summary.json)
	$(BIN)/python docs/make_screenshot.py docs/img/plan.png --plan

bench: install
	for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) kpart-report build *.egg-info src/*.egg-info
