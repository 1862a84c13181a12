#!/usr/bin/env bash
# Trains character language models on an accelerator (docs/neural.md, "Character language models on an
# accelerator"): a forward and a backward model at each state size in $SIZES, all at once on one GPU, for $MINUTES
# each, then writes each as one compact file (`save_weights`: half-precision weights and manifest) to $OUT_DIR.
# Back on any machine, `load_weights` turns such a file into a model folder that the tagger reads and that training
# resumes from (on CPU too).
# The corpus is one JSON-lines file ($CORPUS, field "text"), so that it travels with the working tree; make it with
#   .venv/bin/python -c 'import gzip, json, sys; from anonimed.embeddings import corpus_texts
#   with gzip.open(sys.argv[1], "wt", encoding="utf-8") as f: [f.write(json.dumps({"text": t}) + "\n") for t in corpus_texts(sys.argv[2:])]' \
#     OUT.jsonl.gz ../shared/data/meddocan/unlabeled ../shared/data/meddocan/train/brat ../shared/data/meddocan/dev/brat \
#     ../shared/data/spanish-clinical-cases-combined/clinical_cases_es.dedup.jsonl.gz
# (the corpus of scripts/train_charlm_tagger.sh, in the same order, so the held-out documents are the same).
# Needs torch and numpy only (not the package's other dependencies): it calls the Python API with PYTHONPATH=src.
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS="${CORPUS:?set CORPUS to a .jsonl.gz corpus}"
OUT_DIR="${OUT_DIR:-runs/charlm-accelerator}"
RUN_DIR="${RUN_DIR:-runs/charlm-accelerator/models}"
SIZES="${SIZES:-512 1024}"
MINUTES="${MINUTES:-8}"
DEVICE="${DEVICE:-cuda}"
STREAMS="${STREAMS:-128}"
PYTHON="${PYTHON:-python3}"
mkdir -p "$OUT_DIR" "$RUN_DIR"
pids=()
"$PYTHON" -c 'import torch; print("torch", torch.__version__, "cuda", torch.cuda.is_available())'
for hidden in $SIZES; do
    for direction in forward backward; do
        name="$direction-$hidden"
        PYTHONPATH=src "$PYTHON" - "$CORPUS" "$RUN_DIR/$name" "$OUT_DIR/$name.pt" "$direction" "$hidden" "$MINUTES" \
            "$DEVICE" "$STREAMS" > "$RUN_DIR/$name.log" 2>&1 <<'PY' &
import logging, sys
from anonimed.detect.neural.charlm import CharLmConfig, save_weights, train_char_lm
corpus, folder, weights, direction, hidden, minutes, device, streams = sys.argv[1:]
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
config = CharLmConfig(
    direction=direction, hidden=int(hidden), window=250, streams=int(streams), dropout=0.1, device=device,
    max_minutes=float(minutes), checkpoint_minutes=2.0,
)
manifest = train_char_lm([corpus], folder, config)
save_weights(folder, weights)
print("done:", direction, hidden, manifest["history"])
PY
        pids+=($!)
    done
done
status=0
for pid in "${pids[@]}"; do
    wait "$pid" || status=1
done
for log in "$RUN_DIR"/*.log; do
    echo "== $log"
    tail -n 4 "$log"
done
exit $status
