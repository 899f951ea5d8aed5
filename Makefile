# Each target works alone on a fresh machine: it creates .venv and installs what it needs.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
SAMPLES := $(sort $(wildcard samples/test_aclnn_*.py))

.PHONY: run test test-slow lint bench fuzz capi clean pictures

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e .
	@touch $@

# --no-compile: pip would byte-compile every installed file (numba's, mypy's, hypothesis' ...), about
# half of the install's CPU; Python compiles the modules a run imports on first use instead. Not
# when PYTHONDONTWRITEBYTECODE is set: then nothing would keep that bytecode, and every process
# would compile numpy and numba again.
NO_COMPILE := $(if $(PYTHONDONTWRITEBYTECODE),,--no-compile)
$(DEV_STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet $(NO_COMPILE) -e '.[test,fast,lint]'
	@touch $@ $(RUN_STAMP)

## run: the sample programs (ports of the C++ samples), one after the other
run: $(RUN_STAMP)
	@for s in $(SAMPLES); do \
		echo "== $$s"; \
		$(PY) $$s || exit $$?; \
	done

## test: the whole test suite on one worker per core plus one (pytest-xdist; a test file stays on one
## worker): about a third of the suite waits on child processes (g++, the C programs, the sleeps of
## CANN's own examples), which the extra worker fills (3 workers on 2 cores: 182 s instead of 195 s
## cold, 4: 203 s). --assert=plain: rewriting the asserts of ~190 test modules costs each worker
## ~10 s of CPU on a fresh checkout; run a failing test again with plain `pytest path::test` for
## pytest's detailed message.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
test: $(DEV_STAMP)
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --assert=plain

## test-slow: the checks too slow for every run (every kernel recompiled without F16C; every C runtime program under AddressSanitizer)
test-slow: $(DEV_STAMP)
	ACLNN_PY_SLOW_TESTS=1 $(PY) -m pytest -n auto tests/test_kernel_paths.py tests/test_capi.py

## capi: the C ABI (capi/build/lib/libascendcl.so & co.) for compiling C++ aclnn programs; see docs/c-api.md
capi: $(RUN_STAMP)
	$(PY) capi/build.py
	@echo "compile with: g++ prog.cpp $$($(PY) capi/build.py --cflags --libs)"

## pictures: the docs' pictures (docs/pictures: executor graphs as SVG + DOT, a stream timeline as SVG + trace-event JSON), made from the walkthroughs' calls
pictures: $(RUN_STAMP)
	$(PY) -m aclnn_py.pictures docs/pictures

## lint: ruff (lint + format check) and mypy on the package
lint: $(DEV_STAMP)
	$(PY) -m ruff check aclnn_py tests samples bench capi tools
	$(PY) -m ruff format --check aclnn_py capi tests bench samples tools
	$(PY) -m mypy

clean:
	rm -rf $(VENV) build dist *.egg-info capi/build capi/build-asan

## bench: the benchmark tables (machine, start-up, small calls and their profile, every kernel path vs the copy bound and PyTorch, memory); BENCH_ARGS=--quick for a short run
bench: $(DEV_STAMP)
	$(PY) bench/run.py --json bench/results.json $(BENCH_ARGS)

## fuzz: long fuzz campaigns of the C-style surface (>= 100,000 calls; then with the sanitizer at error; then 30,000 calls on each other emulated chip), then a long random run of the lifecycle model
FUZZ_OTHER_SOCS := Ascend910_93 Ascend950 Ascend910 Ascend310P
fuzz: $(DEV_STAMP)
	$(PY) tests/fuzz_campaign.py --calls 120000
	$(PY) tests/fuzz_campaign.py --calls 60000 --sanitizer error
	@for soc in $(FUZZ_OTHER_SOCS); do \
		echo "== ACLNN_PY_SOC=$$soc"; \
		ACLNN_PY_SOC=$$soc $(PY) tests/fuzz_campaign.py --calls 30000 || exit $$?; \
	done
	$(PY) tests/lifecycle_campaign.py --examples 4000
