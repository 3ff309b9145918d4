# navbench: `make demo` (set-up + the main job) and `make test` (set-up + the test suite).
SHELL := /bin/bash
VENV ?= .venv
BIN := $(VENV)/bin
DEMO_OUT ?= demo_out

.PHONY: setup demo test test-all lint bench clean

setup:
	@./scripts/setup.sh

demo: setup
	@$(BIN)/navbench demo --out $(DEMO_OUT)

test: setup
	@$(BIN)/ruff check --quiet src tests benchmarks
	@$(BIN)/python -m pytest -q

test-all: setup
	@$(BIN)/python -m pytest -q -m ""

lint: setup
	@$(BIN)/ruff check src tests benchmarks
	@$(BIN)/ruff format --check src tests benchmarks

bench: setup
	@for f in benchmarks/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) $(DEMO_OUT) .pytest_cache .ruff_cache build src/*.egg-info
