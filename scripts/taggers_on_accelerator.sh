#!/usr/bin/env bash
# Trains the default model's two BiLSTM-CRF members as stage 3 of scripts/build_default_model.sh does (the network
# that learns augmented copies in other layouts, seed 13, and the plain one, seed 7), side by side on one GPU
# ($DEVICE), each for at most $MINUTES. The same commands run on CPU with DEVICE=cpu (the recipe's own way).
# $DATA is one folder that holds what the members learn, as the build script's folders are laid out:
#   meddocan/{train,dev}/brat, relabelled/ (stage 3's labelled unlabeled notes), synth/, styles/ (benchmarks/styles)
#   and the gazetteers that augmentation draws on (spanish-names-ine/, spain-ine-municipalities/...).
# $EMBEDDINGS is runs/embeddings/clinical-es-100d.npz. Needs torch, numpy, onnx, onnxruntime, Faker and
# python-crfsuite; it runs the package from src/ (PYTHONPATH), so nothing has to be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${DATA:?set DATA to the folder of training data}"
EMBEDDINGS="${EMBEDDINGS:?set EMBEDDINGS to the word vectors of anonimed embed}"
OUT_DIR="${OUT_DIR:-runs/neural}"
DEVICE="${DEVICE:-cuda}"
MINUTES="${MINUTES:-90}"
LAYOUTS_EPOCHS="${LAYOUTS_EPOCHS:-9}"  # stage 2's best epochs, as the build script reads them
PLAIN_EPOCHS="${PLAIN_EPOCHS:-15}"
PYTHON="${PYTHON:-python3}"
export PYTHONPATH="src${PYTHONPATH:+:$PYTHONPATH}"
"$PYTHON" -c 'import torch; print("torch", torch.__version__, "cuda", torch.cuda.is_available())'
mkdir -p "$OUT_DIR"
train=("$DATA/meddocan/train/brat" "$DATA/meddocan/dev/brat" "$DATA/relabelled" "$DATA/synth" "$DATA/styles")
common=(--model neural --train "${train[@]}" --dev "$DATA/meddocan/dev/brat" --embeddings "$EMBEDDINGS" --preset dismed)
options() { printf '{"max_epochs": %s, "max_minutes": %s, "device": "%s"}' "$1" "$MINUTES" "$DEVICE"; }
"$PYTHON" -m anonimed train "${common[@]}" --out "$OUT_DIR/dismed-layouts-styles-s13" \
    --options "$(options "$LAYOUTS_EPOCHS")" --augment 1 --layouts --seed 13 \
    > "$OUT_DIR/dismed-layouts-styles-s13.log" 2>&1 &
layouts=$!
"$PYTHON" -m anonimed train "${common[@]}" --out "$OUT_DIR/dismed-styles-s7" \
    --options "$(options "$PLAIN_EPOCHS")" --seed 7 > "$OUT_DIR/dismed-styles-s7.log" 2>&1 &
plain=$!
status=0
wait "$layouts" || status=1
wait "$plain" || status=1
for log in "$OUT_DIR"/dismed-layouts-styles-s13.log "$OUT_DIR"/dismed-styles-s7.log; do
    echo "== $log"
    grep -E "epoch|error|Error" "$log" | tail -n 20
done
exit $status
