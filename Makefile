# Two commands: `make lab` (learn) and `make test` (check). Both set everything up first.
# Needs only Python >= 3.10 and make; the virtual environment lives in .venv/.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8888
START := notebooks/00_start_here.ipynb
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg
JUPYTER_SETTINGS := $(VENV)/share/jupyter/lab/settings/overrides.json

.PHONY: lab test lint translations unit notebooks bench clean help
.DEFAULT_GOAL := help

help:
	@echo "make lab    set up .venv and open the series in JupyterLab (127.0.0.1, token auth)"
	@echo "make test   set up .venv with the test tools and run every check"

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
	$(BIN)/python tools/check_notebooks.py notebooks/*.ipynb notebooks/zh-Hans/*.ipynb notebooks/zh-Hant/*.ipynb

# The Chinese editions: no translation stale or missing, no generated file out of date (docs/translating.md).
translations: $(VENV)/.installed-test
	$(BIN)/python tools/translate.py check

unit: $(VENV)/.installed-test
	$(BIN)/python -m pytest tests

# All three editions (notebooks/, notebooks/zh-Hans/, notebooks/zh-Hant/), one notebook per worker, and one
# BLAS thread per kernel: two kernels with threaded OpenBLAS on two cores spend most of 09 waiting on each other.
notebooks: $(VENV)/.installed-test
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 $(BIN)/python -m pytest $(NBVAL) -n 2 --dist loadfile notebooks

test: lint translations unit notebooks

# Key press -> new frame for every lab, in a static page and in live JupyterLab beside kernel renderers.
bench: $(VENV)/.installed-test
	$(BIN)/python benchmarks/lab_latency.py

# Offline reveal.js slides of every notebook in build/slides/ (open build/slides/index.html).
# The first run fetches pinned reveal.js and MathJax with npm into .cache/slides/; presenting needs no network.
.PHONY: slides
slides: $(VENV)/.installed
	$(BIN)/python tools/build_slides.py --out build/slides

# A website of the series in build/site/ (open build/site/index.html, or serve the folder from any static
# web host): every notebook as a page with its stored outputs and live labs; no network, no Python to read it.
.PHONY: site
site: $(VENV)/.installed
	$(BIN)/python tools/build_site.py --out build/site

clean:
	rm -rf $(VENV) build test-artifacts .pytest_cache .ruff_cache .hypothesis
