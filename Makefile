# kpart — make demo (install + main job on the flights data), make test (install + lint + suite)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install demo test bench lint clean browser docs-img

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: install
	$(BIN)/kpart report --out kpart-report

lint: install
	$(BIN)/ruff check src tests benchmarks

test: install lint $(if $(filter true,$(CI)),browser)
	$(BIN)/python -m pytest -q src tests

# Debian's chromium for the report's browser test (skipped, not failed, without it unless CI=true)
browser:
	command -v chromium >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)

# docs/img/report.png: the demo report (make demo output if present) rendered by the browser test code
docs-img: install browser
	$(BIN)/python docs/make_screenshot.py docs/img/report.png $(if $(wildcard kpart-report/summary.json),--summary kpart-report/summary.json)

bench: install
	for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) kpart-report build *.egg-info src/*.egg-info
