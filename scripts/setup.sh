#!/usr/bin/env bash
# Creates .venv (if missing) and installs anonimed into it with the extras named as arguments (e.g. "test").
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
extras="${1:-}"
spec="."
[ -n "$extras" ] && spec=".[${extras}]"
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$spec"
