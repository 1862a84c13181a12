#!/usr/bin/env bash
# Sets up .venv with the test extras (and, as root, the Chromium and Java that some tests need) and runs the whole
# test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh
bash scripts/setup.sh test
.venv/bin/python -m pytest -q "$@"
