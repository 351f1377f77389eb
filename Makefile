# The two commands of the README: `make demo` and `make test`. Each creates or refreshes .venv first.
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.stamp-install
MPY    := tests/firmware/mpy

.PHONY: demo test system-deps lint typecheck bench bench-quick faults clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/quizbox demo

# System packages the tests need (mosquitto; node and npm for the MicroPython tests; chromium for the
# browser tests; shellcheck and systemd-analyze for the deployment files);
# installs only what is missing, with apt-get (as root, or through sudo).
system-deps:
	bash scripts/system-deps.sh

test: system-deps $(STAMP)
	@if [ -f $(MPY)/package.json ]; then cd $(MPY) && npm ci --silent --no-audit --no-fund; fi
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict appliance web
	$(VENV)/bin/pytest

# The fault and security tests with their full fault counts (make test runs the kill loops with fewer
# kills under CI=true to stay within CI's time: tests/faults/sizing.py); the README's fault figures come
# from this run (about 6 minutes).
faults: system-deps $(STAMP)
	QUIZBOX_FULL_FAULTS=1 $(VENV)/bin/pytest tests/faults tests/security

# The type check make test runs: strict on the appliance and the web (the firmware is MicroPython, checked
# by its own tests).
typecheck: $(STAMP)
	$(VENV)/bin/mypy --strict appliance web

# Every benchmark, once (about 15 minutes; needs mosquitto, as the tests do); their figures replace
# README.md's performance section (bench/report.py). The exit status is 1 when a goal was missed; the
# README says which.
bench: $(STAMP)
	$(PY) bench/report.py

# The same chain with small counts (the README's figures are then marked as a trial).
bench-quick: $(STAMP)
	$(PY) bench/report.py --quick

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
