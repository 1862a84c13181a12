#!/usr/bin/env bash
# Rebuilds the shipped default model (src/anonimed/models/default) from MEDDOCAN and the unlabeled clinical text in
# ../shared/data, in three stages:
#   1. embeddings, a CRF and two BiLSTM-CRF taggers trained on train, and their ensemble (the "teacher");
#   2. self-training: the teacher labels the 1,000 unlabeled MEDDOCAN notes listed in scripts/self-training-notes.txt,
#      the three members are trained again on train + those notes, and their vote is tuned on dev (the "tuned"
#      model: every dev figure in BENCHMARKS.md and MODEL_CARD.md is its own);
#   3. release refit: the tuned model labels the same 1,000 notes again, and the three members are trained once more on
#      train + dev + those notes (the networks for as many epochs as their stage-2 run kept), voting as the tuned
#      model does (plus the styles vote of scripts/default-votes.json, chosen on folds of the styles set); the CRF and
#      the layout-trained network also learn from 600 invented notes of other styles (`anonimed synth`: narrative,
#      Catalan, radiology, primary care, other header keys) and from the notes of the styles development set
#      (benchmarks/styles) listed in scripts/styles-training-notes.txt (the set has grown since; later notes are
#      scored, not learnt). This is the shipped model: it has learnt from dev, so its dev figures are not measured.
# Usage: scripts/build_default_model.sh [STAGE...] (default: 1 2 3; a later stage reads the runs/ of the earlier ones).
# About 6 hours on the project's 2-core machine (trainings run side by side). Intermediate models go to runs/ (not
# committed); MODEL_CARD.md explains each step.
set -euo pipefail
STAGES="${*:-1 2 3}"
for stage in $STAGES; do
    case "$stage" in 1|2|3) ;; *) echo "unknown stage '$stage' (stages: 1 2 3)" >&2; exit 2 ;; esac
done
cd "$(dirname "$0")/.."
DATA="${ANONIMED_SHARED:-../shared}/data"
M="$DATA/meddocan"
[ -d "$M/train/brat" ] || { echo "MEDDOCAN not found under $M (set ANONIMED_SHARED)" >&2; exit 2; }
bash scripts/setup.sh train
A=.venv/bin/anonimed
mkdir -p runs/embeddings runs/crf runs/neural runs/ensemble

[ -f runs/embeddings/clinical-es-100d.npz ] || $A embed --corpus "$M/unlabeled" "$M/train/brat" "$M/dev/brat" \
    "$DATA/spanish-clinical-cases-combined/clinical_cases_es.dedup.jsonl.gz" --out runs/embeddings/clinical-es-100d.npz

# Until stage 3, no member learns from dev's annotations: dev only stops the neural runs early and tunes the votes.
# members PREFIX LAYOUTS_OPTIONS PLAIN_OPTIONS STYLES DATA...: the CRF and the two BiLSTM-CRF taggers (options: JSON
# for the layout-trained network and the plain one), side by side, trained on DATA; the CRF and the layout-trained
# network also on the folders STYLES (space-separated, "" for none), notes of other styles that the plain network,
# trained without other layouts, leaves out.
members() {
    local prefix="$1" layouts_options="$2" plain_options="$3" styles="$4"; shift 4
    local pids=()
    # shellcheck disable=SC2086  # $styles is split into its folders on purpose
    $A train --model crf --train "$@" $styles --dev "$M/dev/brat" --out "runs/crf/layouts-$prefix" \
        --augment 1 --layouts --seed 13 > "runs/crf/layouts-$prefix.log" 2>&1 &
    pids+=($!)
    # shellcheck disable=SC2086
    $A train --model neural --train "$@" $styles --dev "$M/dev/brat" --embeddings runs/embeddings/clinical-es-100d.npz \
        --out "runs/neural/dismed-layouts-$prefix-s13" --preset dismed --options "$layouts_options" \
        --augment 1 --layouts --seed 13 > "runs/neural/dismed-layouts-$prefix-s13.log" 2>&1 &
    pids+=($!)
    $A train --model neural --train "$@" --dev "$M/dev/brat" --embeddings runs/embeddings/clinical-es-100d.npz \
        --out "runs/neural/dismed-$prefix-s7" --preset dismed --options "$plain_options" \
        --seed 7 > "runs/neural/dismed-$prefix-s7.log" 2>&1 &
    pids+=($!)
    for pid in "${pids[@]}"; do wait "$pid"; done  # set -e: a failed run stops the build here
}

# ensemble PREFIX OUT: tunes the vote of the members trained by `members PREFIX` into OUT.
ensemble() {
    $A train --model ensemble --dev "$M/dev/brat" --out "$2" \
        --members crf="runs/crf/layouts-$1" neural="runs/neural/dismed-layouts-$1-s13" neural2="runs/neural/dismed-$1-s7" \
        patterns --weights 0.5 1 2 --thresholds 0.1 0.2 0.3 0.4 0.5 --vote-kinds soft \
        --stress-sets lower no_keys radiology > "runs/ensemble/$1.log" 2>&1
}

# styles_notes OUT: the notes of benchmarks/styles that scripts/styles-training-notes.txt lists (text and annotations),
# linked into OUT.
styles_notes() {
    rm -rf "$1" && mkdir -p "$1"
    while read -r name; do
        for ext in txt ann; do ln -s "$(realpath "benchmarks/styles/$name.$ext")" "$1/$name.$ext"; done
    done < scripts/styles-training-notes.txt
}

# label NOTES_LIST MODEL OUT: MODEL's balanced vote on the unlabeled notes listed in NOTES_LIST, as BRAT in OUT.
label() {
    rm -rf runs/pseudo/notes "$3" && mkdir -p runs/pseudo/notes
    while read -r name; do ln -s "$(realpath "$M/unlabeled/$name.txt")" "runs/pseudo/notes/$name.txt"; done < "$1"
    $A predict runs/pseudo/notes "$3" --model "$2"
}

epochs() { .venv/bin/python -c 'import json, sys; print(json.load(open(sys.argv[1] + "/model.json"))["best_epoch"])' "$1"; }

for stage in $STAGES; do
    case "$stage" in
    1)
        members train '{"patience": 8, "max_minutes": 50}' '{"patience": 8, "max_minutes": 50}' "" "$M/train/brat"
        ensemble train runs/ensemble/teacher
        ;;
    2)  # Self-training: the teacher's labels (its balanced vote) on a fixed sample of the unlabeled notes.
        label scripts/self-training-notes.txt runs/ensemble/teacher runs/pseudo/labelled
        members self '{"patience": 6, "max_minutes": 55}' '{"patience": 6, "max_minutes": 55}' "" \
            "$M/train/brat" runs/pseudo/labelled
        ensemble self runs/ensemble/self
        ;;
    3)  # Release refit: the tuned model labels the notes again and dev's notes join the training data; the vote and
        # the number of epochs are those tuned in stage 2.
        label scripts/self-training-notes.txt runs/ensemble/self runs/pseudo/relabelled
        rm -rf runs/synth && $A synth runs/synth --notes 600 --seed 0
        styles_notes runs/styles-learnt
        members self-dev "{\"max_epochs\": $(epochs runs/neural/dismed-layouts-self-s13), \"max_minutes\": 105}" \
            "{\"max_epochs\": $(epochs runs/neural/dismed-self-s7), \"max_minutes\": 90}" "runs/synth runs/styles-learnt" \
            "$M/train/brat" "$M/dev/brat" runs/pseudo/relabelled
        # Stage 2's votes, the styles vote chosen on two folds of the styles set (benchmarks/vote_folds.py), which
        # the CRF now learns and dev cannot weigh, and balanced as stage 2 tuned it with neural2 deferred (read only
        # around the other members' spans; chosen on the same folds): scripts/default-votes.json.
        $A train --model ensemble --votes-from runs/ensemble/self --votes scripts/default-votes.json \
            --out src/anonimed/models/default \
            --members crf=runs/crf/layouts-self-dev neural=runs/neural/dismed-layouts-self-dev-s13 \
            neural2=runs/neural/dismed-self-dev-s7 patterns
        ;;
    esac
done
