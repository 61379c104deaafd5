#!/usr/bin/env bash
# The core alone: a fresh venv, `pip install .` (no extras), and the core tests run there.
# They must pass without langchain, langgraph, llama_index, scikit-learn, torch or matplotlib installed
# (scipy is a core dependency). Test tools come from the `core-test` extra, which adds no library code.
#   .ci/minimal.sh            # uses python3; PY=python3.12 .ci/minimal.sh to pick another
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PY:-python3}"
VENV="$(mktemp -d "${TMPDIR:-/tmp}/tarl-minimal.XXXXXX")"
trap 'rm -rf "$VENV"' EXIT
"$PY" -m venv "$VENV"
"$VENV/bin/pip" install --quiet --upgrade pip
"$VENV/bin/pip" install --quiet . pytest pytest-asyncio pytest-socket hypothesis
for absent in langchain_core langgraph llama_index sklearn torch matplotlib; do
  if "$VENV/bin/python" -c "import $absent" 2>/dev/null; then
    echo "minimal install unexpectedly has $absent" >&2; exit 1
  fi
done
# Run from a copy of tests/ outside the source tree, so the installed package (not ./shared_core) is tested.
cp -r tests "$VENV/tests"
cp pyproject.toml "$VENV/pyproject.toml"
cd "$VENV"
# Benchmarks (tests/*/test_*_bench.py) belong to the `bench` extra and are not run here.
"$VENV/bin/python" -m pytest -q -p no:cacheprovider tests/core tests/index tests/beliefs tests/janus tests/lre \
  tests/tarl/test_tarl_inference.py --ignore-glob='*_bench.py'
echo "minimal install: core tests passed"
