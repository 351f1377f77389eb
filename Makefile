# The two commands of the README: `make demo` and `make test`. Each creates or refreshes .venv first.
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.stamp-install
MPY    := tests/firmware/mpy

.PHONY: demo test system-deps lint typecheck bench clean

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

# The type check make test runs: strict on the appliance and the web (the firmware is MicroPython, checked
# by its own tests).
typecheck: $(STAMP)
	$(VENV)/bin/mypy --strict appliance web

bench: $(STAMP)
	$(PY) bench/rtt.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
