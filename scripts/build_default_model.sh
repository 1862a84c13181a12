#!/usr/bin/env bash
# Rebuilds the shipped default model (src/anonimed/models/default) from MEDDOCAN and the unlabeled clinical text in
# ../shared/data: embeddings, a CRF, two BiLSTM-CRF taggers, then the ensemble's vote tuned on dev.
# About 2 hours on the project's 2-core machine (the two neural runs take 50 minutes each when run side by side).
# Intermediate models go to runs/ (not committed); MODEL_CARD.md explains each step.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${ANONIMED_SHARED:-../shared}/data"
M="$DATA/meddocan"
[ -d "$M/train/brat" ] || { echo "MEDDOCAN not found under $M (set ANONIMED_SHARED)" >&2; exit 2; }
bash scripts/setup.sh train
A=.venv/bin/anonimed
mkdir -p runs/embeddings runs/crf runs/neural

[ -f runs/embeddings/clinical-es-100d.npz ] || $A embed --corpus "$M/unlabeled" "$M/train/brat" "$M/dev/brat" \
    "$DATA/spanish-clinical-cases-combined/clinical_cases_es.dedup.jsonl.gz" --out runs/embeddings/clinical-es-100d.npz

# Members are trained on train only: dev stops the neural runs early and tunes the vote, so the dev figures of the
# ensemble in BENCHMARKS.md are those of exactly the shipped members.
$A train --model crf --train "$M/train/brat" --dev "$M/dev/brat" --out runs/crf/layouts-train \
    --augment 1 --layouts --seed 13 > runs/crf/layouts-train.log 2>&1 &
pids=($!)
$A train --model neural --train "$M/train/brat" --dev "$M/dev/brat" --embeddings runs/embeddings/clinical-es-100d.npz \
    --out runs/neural/dismed-layouts-s13 --preset dismed --options '{"patience": 8, "max_minutes": 50}' \
    --augment 1 --layouts --seed 13 > runs/neural/dismed-layouts-s13.log 2>&1 &
pids+=($!)
$A train --model neural --train "$M/train/brat" --dev "$M/dev/brat" --embeddings runs/embeddings/clinical-es-100d.npz \
    --out runs/neural/dismed-s7 --preset dismed --options '{"patience": 8, "max_minutes": 50}' \
    --seed 7 > runs/neural/dismed-s7.log 2>&1 &
pids+=($!)
for pid in "${pids[@]}"; do wait "$pid"; done  # set -e: a failed run stops the build here

$A train --model ensemble --dev "$M/dev/brat" --out src/anonimed/models/default \
    --members crf=runs/crf/layouts-train neural=runs/neural/dismed-layouts-s13 neural2=runs/neural/dismed-s7 patterns \
    --weights 0.5 1 2 --thresholds 0.1 0.2 0.3 0.4 0.5 --vote-kinds soft --stress-sets lower no_keys radiology
