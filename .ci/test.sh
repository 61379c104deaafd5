#!/usr/bin/env bash
# The README's test command (`make test`) on a fresh machine: Chromium from Debian for the dashboard's
# browser test, PostgreSQL and a Chroma server on 127.0.0.1 for server mode (stopped on exit, pass or
# fail), the whole suite in .venv, then the core alone in a fresh venv without extras.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/chromium.sh
eval "$(bash .ci/services.sh start)"
trap 'bash .ci/services.sh stop' EXIT
.venv/bin/python -m pytest -q -p no:cacheprovider
bash .ci/minimal.sh
