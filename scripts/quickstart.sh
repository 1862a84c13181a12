#!/usr/bin/env bash
# Sets up .venv and de-identifies the bundled example notes with the bundled default model into out/examples/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/anonimed deidentify examples/ out/examples --audit out/examples-audit.jsonl "$@"
echo "De-identified notes are in out/examples/ (audit of every replacement: out/examples-audit.jsonl)."
