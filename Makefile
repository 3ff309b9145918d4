# navbench: `make demo` (set-up + the main job) and `make test` (set-up + the test suite).
SHELL := /bin/bash
VENV ?= .venv
BIN := $(VENV)/bin
DEMO_OUT ?= demo_out
# test processes (pytest-xdist): 2 on CI's 2 cores, ~0.7 of the serial time; 0 runs in one process
TEST_WORKERS ?= 2

.PHONY: setup demo test test-all lint bench clean

setup:
	@./scripts/setup.sh

demo: setup
	@$(BIN)/navbench demo --out $(DEMO_OUT)

test: setup
	@$(BIN)/ruff check --quiet src tests benchmarks
	@$(BIN)/python -m pytest -q -n $(TEST_WORKERS)

test-all: setup
	@$(BIN)/python -m pytest -q -n $(TEST_WORKERS) -m ""

# ruff check + the type checker (config: [tool.mypy] in pyproject.toml). No `ruff format --check`:
# the code is wrapped by hand and never was `ruff format`-ed.
lint: setup
	@$(BIN)/ruff check src tests benchmarks
	@$(BIN)/python -m mypy

bench: setup
	@for f in benchmarks/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) $(DEMO_OUT) .pytest_cache .ruff_cache .mypy_cache .dmypy.json build src/*.egg-info
