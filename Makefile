# Table Companion: `make run` and `make test` set everything up themselves
# (system packages via apt, a virtualenv, the Python dependencies) and are
# safe to run again.  On a Raspberry Pi with python3-picamera2 installed the
# virtualenv sees the system's Picamera2 (--system-site-packages).

SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.deps-installed
RUN_APT := libzbar0
TEST_APT := libzbar0 chromium fonts-dejavu-core
VENV_FLAGS := $(shell dpkg -s python3-picamera2 >/dev/null 2>&1 && echo --system-site-packages)

.PHONY: run test check lint typecheck bench deps run-deps test-deps clean

run: run-deps
	$(BIN)/companion serve

test: test-deps
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/pytest

bench: test-deps
	$(BIN)/python -m benchmarks

run-deps: APT_PACKAGES = $(RUN_APT)
run-deps: apt $(STAMP)
test-deps: APT_PACKAGES = $(TEST_APT)
test-deps: apt $(STAMP)

# Install the Debian packages that are missing (as root, or through sudo).
apt:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg -s $$p 2>/dev/null | grep -q '^Status: install ok installed' || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing system packages:$$missing"; \
	  sudo=""; [ "$$(id -u)" -ne 0 ] && sudo=sudo; \
	  $$sudo apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	fi

$(BIN)/python:
	$(PYTHON) -m venv $(VENV_FLAGS) $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
