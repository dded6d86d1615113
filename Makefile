# Table Companion: `make run` and `make test` set everything up themselves
# (system packages via apt, a virtualenv, the Python dependencies) and are
# safe to run again.  docs/raspberry-pi.md explains the Raspberry Pi path.
#
#   make run     runtime dependencies only, then `companion serve`
#   make test    adds the dev tools (pytest, Playwright, mypy, ruff), then every test
#
# On a Raspberry Pi (/proc/device-tree/model says so, or COMPANION_PI=1; say
# COMPANION_PI=0 to treat a Pi as any other machine) numpy and OpenCV come
# from apt, like Picamera2 and its compiled helpers that are built against
# apt's numpy.  The virtualenv sees the system site packages, and pip is held
# to apt's numpy by a constraints file, so there is exactly one numpy in the
# process.  Every run checks the virtualenv's system-site setting and
# rebuilds it when it is wrong.  Off a Pi, numpy and OpenCV come from PyPI
# (the `vision` extra) and the virtualenv is isolated.
#
# What pip installs is the hash-pinned lock of this kind of machine
# (locks/*.txt, companion/locks.py says which holds what); `make lock` writes
# the locks again after pyproject.toml's dependencies change (`make lock
# UPGRADE=1` takes the newest releases pyproject.toml allows).

SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip -q --disable-pip-version-check

PI := $(shell case "$$COMPANION_PI" in (1|yes|true) echo 1;; (0|no|false) echo 0;; \
  (*) cat /proc/device-tree/model 2>/dev/null | tr -d '\0' | grep -q 'Raspberry Pi' && echo 1 || echo 0;; esac)

ifeq ($(PI),1)
# Pi OS: numpy/OpenCV/Picamera2/lgpio from apt (one numpy); pip adds the pure-Python rest.
RUN_APT := libzbar0 python3-numpy python3-opencv
# present on Raspberry Pi OS, not in plain Debian: installed when apt has them
RUN_APT_IF_AVAILABLE := python3-picamera2 python3-lgpio
SYSTEM_SITE := true
LOCK_SUFFIX :=
CONSTRAINTS := -c $(VENV)/one-numpy.txt
else
RUN_APT := libzbar0
RUN_APT_IF_AVAILABLE :=
SYSTEM_SITE := false
LOCK_SUFFIX := -vision
CONSTRAINTS :=
endif
RUN_LOCK := locks/run$(LOCK_SUFFIX).txt
DEV_LOCK := locks/dev$(LOCK_SUFFIX).txt
TEST_APT := chromium fonts-dejavu-core

.PHONY: run test fuzz check lint typecheck bench deps run-deps test-deps platform apt-run apt-test venv clean pi-proof lock bundle catalogs

run: run-deps
	$(BIN)/companion serve

test: test-deps
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/pytest

# the fuzz tests alone (pytest -m fuzz), with ten times the cases `make test` tries
fuzz: test-deps
	COMPANION_FUZZ=thorough $(BIN)/pytest -m fuzz -q -p no:cacheprovider --hypothesis-show-statistics

bench: test-deps
	$(BIN)/python -m benchmarks

run-deps: platform apt-run venv $(VENV)/.runtime-installed
	@$(BIN)/python -m hardware.onenumpy $(if $(filter 1,$(PI)),--pi)
test-deps: platform apt-run apt-test venv $(VENV)/.dev-installed
	@$(BIN)/python -m hardware.onenumpy $(if $(filter 1,$(PI)),--pi)
deps: test-deps

# Stop at once where the wheels do not exist (never an hour of compiling).
platform:
	@arch=$$(dpkg --print-architecture 2>/dev/null || uname -m); \
	case "$$arch" in armhf|armel|armv6l|armv7l|i386|i686) \
	  echo "Table Companion needs a 64-bit system: this one is $$arch (32-bit)." >&2; \
	  echo "On a Raspberry Pi, flash Raspberry Pi OS (64-bit) (Pi 3B+, Zero 2 W, 4, 5): see docs/raspberry-pi.md." >&2; \
	  exit 1;; esac; \
	$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null || { \
	  echo "Table Companion needs Python 3.11 or newer; $(PYTHON) is $$($(PYTHON) -V 2>&1)." >&2; \
	  echo "On a Raspberry Pi, flash Raspberry Pi OS Bookworm or Trixie (64-bit)." >&2; exit 1; }

# Install the Debian packages that are missing (as root, or through sudo).
# A library counts as there under its Debian 13 "t64" name too (Trixie ships
# libzbar0 as libzbar0t64; without this every `make run` ran apt again).
define apt_install
	@installed() { for q in "$$1" "$${1}t64"; do \
	  dpkg -s "$$q" 2>/dev/null | grep -q '^Status: install ok installed' && return 0; done; return 1; }; \
	missing=""; for p in $(1); do \
	  installed $$p || missing="$$missing $$p"; done; \
	optional=""; for p in $(2); do \
	  installed $$p || optional="$$optional $$p"; done; \
	if [ -n "$$missing$$optional" ]; then \
	  sudo=""; [ "$$(id -u)" -ne 0 ] && sudo=sudo; \
	  aptget=$$(command -v apt-get || echo apt-get); \
	  if [ -n "$$missing" ] || [ ! -e $(VENV)/.apt-optional-checked ]; then $$sudo $$aptget update -qq || exit 1; fi; \
	  for p in $$optional; do \
	    if [ -n "$$(apt-cache policy $$p 2>/dev/null | sed -n 's/^ *Candidate: *//p' | grep -v '(none)')" ]; then \
	      missing="$$missing $$p"; \
	    else echo "note: $$p is not in this machine's apt sources (Raspberry Pi OS has it); going on without it"; fi; \
	  done; \
	  if [ -n "$$missing" ]; then \
	    echo "Installing system packages:$$missing"; \
	    $$sudo env DEBIAN_FRONTEND=noninteractive $$aptget install -y -qq --no-install-recommends $$missing || exit 1; \
	  fi; \
	  [ -z "$(2)" ] || { mkdir -p $(VENV) && touch $(VENV)/.apt-optional-checked; }; \
	fi
endef

apt-run:
	$(call apt_install,$(RUN_APT),$(RUN_APT_IF_AVAILABLE))
apt-test:
	$(call apt_install,$(TEST_APT),)

# The virtualenv, checked on every run: rebuilt when its system-site setting
# is not the one this machine needs (e.g. a Pi whose venv was made before this
# rule existed) or when its Python no longer starts (an OS upgrade).
venv:
	@why=""; \
	if [ -e $(VENV)/pyvenv.cfg ]; then \
	  if ! grep -qx 'include-system-site-packages = $(SYSTEM_SITE)' $(VENV)/pyvenv.cfg; then \
	    why="it must $(if $(filter true,$(SYSTEM_SITE)),,not )see the system's packages on this machine"; \
	  elif ! $(BIN)/python -c '' 2>/dev/null; then why="its Python no longer starts"; \
	  elif [ "$(PI)" = 1 ] && $(BIN)/python -c 'import numpy, sys; sys.exit(not numpy.__file__.startswith(sys.prefix))' 2>/dev/null; then \
	    why="pip installed a second numpy into it, which shadows apt's"; fi; \
	fi; \
	if [ -n "$$why" ]; then echo "Rebuilding $(VENV): $$why"; rm -rf $(VENV); fi; \
	if [ ! -e $(VENV)/pyvenv.cfg ]; then \
	  $(PYTHON) -m venv $(if $(filter true,$(SYSTEM_SITE)),--system-site-packages) $(VENV) || exit 1; \
	fi
ifeq ($(PI),1)
	@$(BIN)/python -c 'import numpy, cv2' 2>/dev/null || { \
	  echo "apt's python3-numpy / python3-opencv cannot be imported by $(BIN)/python" >&2; exit 1; }
	@$(BIN)/python -c 'import numpy; print("numpy==" + numpy.__version__)' > $(VENV)/one-numpy.txt.new
	@cmp -s $(VENV)/one-numpy.txt.new $(VENV)/one-numpy.txt || mv $(VENV)/one-numpy.txt.new $(VENV)/one-numpy.txt
	@rm -f $(VENV)/one-numpy.txt.new

# written by `venv` above: pip may install nothing that needs another numpy
$(VENV)/one-numpy.txt: ;
endif

# The lock first (every package pinned and its hash checked), then the
# companion itself on top, with nothing more (the lock's setuptools builds it).
$(VENV)/.runtime-installed: pyproject.toml $(RUN_LOCK) $(if $(filter 1,$(PI)),$(VENV)/one-numpy.txt)
	$(PIP) install $(CONSTRAINTS) --require-hashes -r $(RUN_LOCK)
	$(PIP) install --no-deps --no-build-isolation -e .
	touch $@

$(VENV)/.dev-installed: pyproject.toml $(DEV_LOCK) $(if $(filter 1,$(PI)),$(VENV)/one-numpy.txt)
	$(PIP) install $(CONSTRAINTS) --require-hashes -r $(DEV_LOCK)
	$(PIP) install --no-deps --no-build-isolation -e .
	touch $(VENV)/.runtime-installed $@

# Write locks/*.txt again from pyproject.toml (uv, from the dev set).
# The gettext catalogs (docs/translating.md): every domain's English
# extracted with pybabel extract (companion/extract.py reads the catalogs in
# the code) into companion/locale/<domain>.pot, then merged into every
# language's .po (pybabel update: a changed English comes back fuzzy, a new
# language starts with LANG=xx).  tests/test_languages.py fails when a .pot
# is behind the code.
CATALOG_DOMAINS := core web muell-money money-maker world-of-waste
CATALOG_LANGS := fr $(LANG_NEW)
catalogs: test-deps
	@for d in $(CATALOG_DOMAINS); do \
	  $(BIN)/pybabel -q extract -F companion/locale/$$d.cfg -o companion/locale/$$d.pot \
	    --project "Table Companion" --copyright-holder "the Table Companion authors" \
	    --no-wrap --sort-output -c TRANSLATORS: . || exit 1; \
	  for l in $(CATALOG_LANGS); do \
	    if [ -e companion/locale/$$l/LC_MESSAGES/$$d.po ]; then \
	      $(BIN)/pybabel -q update -i companion/locale/$$d.pot -d companion/locale -D $$d -l $$l --no-wrap --ignore-obsolete || exit 1; \
	    else \
	      $(BIN)/pybabel -q init -i companion/locale/$$d.pot -d companion/locale -D $$d -l $$l --no-wrap || exit 1; \
	    fi; \
	  done; \
	done
	@echo "catalogs: companion/locale/*.pot and $(CATALOG_LANGS) merged"

lock: test-deps
	$(BIN)/python -m companion.locks refresh $(if $(filter 1,$(UPGRADE)),--upgrade)
	$(BIN)/python -m companion.locks check

# A release bundle for a Pi without internet: this commit's code and the
# wheels of the Pi's runtime lock (arm64), one file for a USB stick;
# `companion update --bundle FILE` on the Pi (docs/updates.md).  A Trixie Pi
# (Python 3.13): make bundle BUNDLE_PYTHON=3.13.
BUNDLE_PYTHON ?= 3.11
bundle: run-deps
	$(BIN)/companion bundle --python $(BUNDLE_PYTHON) \
	  --out dist/table-companion-$$(git rev-parse --short=12 HEAD)-py$(BUNDLE_PYTHON).tar.gz

# The arm64 proof (not CI: about an hour under emulation): see docs/raspberry-pi.md.
pi-proof:
	bash benchmarks/pi_proof.sh

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
