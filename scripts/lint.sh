#!/usr/bin/env bash
# Lint, format and type checks (the dev extra: ruff and mypy); non-zero when any fails. CI runs it before the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/ruff check src tests benchmarks
.venv/bin/ruff format --check src tests benchmarks
.venv/bin/mypy
