# The two commands of the README: `make demo` (set up, then run the whole loop on the bundled
# sample) and `make test` (set up, then run the test suite). Both create .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup demo test bench lint clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# torch is pinned to the CPU build in pyproject.toml; never let pip pick a CUDA build.
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

setup: $(BIN)/.installed

demo: setup
	$(BIN)/dreamer demo

test: setup
	$(BIN)/python -m pytest -q

bench: setup
	for b in benchmarks/*.py; do $(BIN)/python $$b || exit 1; done

lint: setup
	$(BIN)/ruff check dreamer evals flows tests
	$(BIN)/mypy dreamer evals

clean:
	rm -rf $(VENV) .dreamer .pytest_cache
