#!/usr/bin/env bash
# Trains the BiLSTM-CRF that reads character language model features (docs/neural.md, "Character language model
# features"), in three stages:
#   1. a forward character LM and 2. a backward one (`anonimed embed --char-lm`), on the text of MEDDOCAN (unlabeled,
#      train, dev) and the Spanish clinical cases, the corpus of the word embeddings;
#   3. the tagger reading both (`anonimed train --model neural --char-lm`), stopped early on MEDDOCAN dev.
# Resumable and idempotent: an LM run resumes from its checkpoint (written every 5 minutes) and the script runs the LM
# again until it has made $LM_STEPS steps; a finished stage is skipped, so the script can be stopped and started
# again at any time (the tagger stage restarts from its first epoch: it has no checkpoint; delete $OUT/tagger to train
# it again, e.g. after more LM steps). Logs go to $OUT/*.log;
# at the end the script prints each LM's held-out perplexity and the tagger's time and dev F1 per epoch.
# Settings through the environment (defaults below), e.g. LM_STEPS=2000 HIDDEN=128 scripts/train_charlm_tagger.sh
# Torch trains on CPU, one thread as everywhere in this project: on a machine with an accelerator, the script runs
# the same way on its CPU cores (no GPU code path yet). An LM step took 0.13 s with HIDDEN=256 on the project's 2-core
# machine (2026-11-25): the default 20,000 steps are about 45 minutes a model.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${ANONIMED_SHARED:-../shared}/data"
M="$DATA/meddocan"
OUT="${OUT:-runs/charlm-tagger}"
HIDDEN="${HIDDEN:-256}"            # state size of each character LM
LM_STEPS="${LM_STEPS:-20000}"      # steps of 32 streams x 200 characters
LM_MINUTES="${LM_MINUTES:-55}"     # the longest single LM run
PRESET="${PRESET:-dismed}"
SEED="${SEED:-13}"
TAGGER_OPTIONS="${TAGGER_OPTIONS:-{\"patience\": 8, \"max_minutes\": 120\}}"
EMBEDDINGS="${EMBEDDINGS:-runs/embeddings/clinical-es-100d.npz}"
TRAIN="${TRAIN:-$M/train/brat}"    # the tagger's annotated notes
DEV="${DEV:-$M/dev/brat}"
[ -d "$M/train/brat" ] || { echo "MEDDOCAN not found under $M (set ANONIMED_SHARED)" >&2; exit 2; }
A=.venv/bin/anonimed
CORPUS=("$M/unlabeled" "$M/train/brat" "$M/dev/brat" "$DATA/spanish-clinical-cases-combined/clinical_cases_es.dedup.jsonl.gz")
mkdir -p "$OUT" "$(dirname "$EMBEDDINGS")"

[ -f "$EMBEDDINGS" ] || $A embed --corpus "${CORPUS[@]}" --out "$EMBEDDINGS" > "$OUT/embeddings.log" 2>&1

# lm_steps DIR: the steps the character LM in DIR has made (0 before its first checkpoint).
lm_steps() {
    if [ -f "$1/charlm.json" ]; then
        .venv/bin/python -c 'import json, sys; print(json.load(open(sys.argv[1]))["history"][-1]["step"])' "$1/charlm.json"
    else
        echo 0
    fi
}

for direction in forward backward; do
    while [ "$(lm_steps "$OUT/$direction")" -lt "$LM_STEPS" ]; do
        echo "$(date -u +%H:%M) $direction character LM: step $(lm_steps "$OUT/$direction") of $LM_STEPS"
        $A embed --char-lm "$direction" --corpus "${CORPUS[@]}" --out "$OUT/$direction" --hidden "$HIDDEN" \
            --steps "$LM_STEPS" --minutes "$LM_MINUTES" --seed "$SEED" >> "$OUT/$direction.log" 2>&1
    done
done

if [ ! -f "$OUT/tagger/model.json" ]; then
    echo "$(date -u +%H:%M) tagger ($PRESET, seed $SEED), log in $OUT/tagger.log"
    $A train --model neural --train "$TRAIN" --dev "$DEV" --embeddings "$EMBEDDINGS" \
        --out "$OUT/tagger" --preset "$PRESET" --seed "$SEED" --options "$TAGGER_OPTIONS" \
        --char-lm "$OUT/forward" "$OUT/backward" > "$OUT/tagger.log" 2>&1
fi

for direction in forward backward; do
    echo "$direction LM: $(grep 'held-out perplexity' "$OUT/$direction.log" | tail -n 1)"
done
echo "tagger, per epoch (seconds: training + dev decoding):"
grep '^epoch [0-9]*:' "$OUT/tagger.log" || true
grep -A 20 '^model written' "$OUT/tagger.log" || true
