# Two entry points: `make demo` and `make test`. Both create .venv and install what they need.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e '.[all,test]'
	touch $(STAMP)

.PHONY: install demo test bench clean
install: $(STAMP)

demo: $(STAMP)
	$(BIN)/tarl demo

test: $(STAMP)
	bash .ci/test.sh

clean:
	rm -rf $(VENV)
