"""Train or measure a neural model from the command line until ``anonimed train --model neural`` is wired.

    python -m anonimed.detect.neural train --data /work/shared/data/meddocan --embeddings E.npz --out runs/neural/m
    python -m anonimed.detect.neural measure --data /work/shared/data/meddocan --model runs/neural/m
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from pathlib import Path

from anonimed.detect.neural import load_neural, preset, train_neural
from anonimed.evaluate import read_sentence_counts, score
from anonimed.formats.brat import read_brat_dir
from anonimed.text.tokenize import tokenize


def _train(arguments: argparse.Namespace) -> dict:
    data = Path(arguments.data)
    train_docs, dev_docs = read_brat_dir(data / "train" / "brat"), read_brat_dir(data / "dev" / "brat")
    config = preset(arguments.preset)
    if arguments.options:
        config = config.with_options(**json.loads(arguments.options))
    counts = read_sentence_counts(data / "dev" / "sentences", [d.id for d in dev_docs])
    result = train_neural(
        train_docs, dev_docs, arguments.out, config, arguments.seed,
        embeddings=arguments.embeddings, dev_sentence_counts=counts,
    )
    return {key: result["dev_scores"][key] for key in ("subtask1", "subtask2_strict", "subtask2_merged")} | {
        "best_epoch": result["best_epoch"], "training_seconds": round(result["training_seconds"], 1)
    }


def _measure(arguments: argparse.Namespace) -> dict:
    dev_docs = read_brat_dir(Path(arguments.data) / "dev" / "brat")
    counts = read_sentence_counts(Path(arguments.data) / "dev" / "sentences", [d.id for d in dev_docs])
    detector = load_neural(arguments.model)  # loading is not part of the timed prediction
    started = time.perf_counter()
    predictions = detector.detect_all(dev_docs)
    seconds = time.perf_counter() - started
    tokens = sum(len(tokenize(d.text)) for d in dev_docs)
    report = score(dev_docs, predictions, counts).to_dict()
    size = sum(path.stat().st_size for path in Path(arguments.model).iterdir() if path.is_file())
    return {key: report[key] for key in ("subtask1", "subtask2_strict", "subtask2_merged")} | {
        "documents": len(dev_docs), "tokens": tokens, "seconds": round(seconds, 2),
        "tokens_per_second": round(tokens / seconds), "model_bytes": size,
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m anonimed.detect.neural")
    commands = parser.add_subparsers(dest="command", required=True)
    train = commands.add_parser("train", help="train on DATA/train/brat, stop early on DATA/dev/brat")
    train.add_argument("--data", required=True, help="a MEDDOCAN-layout folder (train/brat, dev/brat, dev/sentences)")
    train.add_argument("--embeddings", required=True, help="word vectors (.npz from 'anonimed embed')")
    train.add_argument("--out", required=True, help="the model folder to write")
    train.add_argument("--preset", default="default", help="default, neuroner, nlnde or dismed")
    train.add_argument("--options", help='JSON object of config changes, e.g. \'{"max_epochs": 10}\'')
    train.add_argument("--seed", type=int, default=13)
    train.set_defaults(run=_train)
    measure = commands.add_parser("measure", help="dev scores and speed of a model folder run by onnxruntime")
    measure.add_argument("--data", required=True)
    measure.add_argument("--model", required=True)
    measure.set_defaults(run=_measure)
    arguments = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    print(json.dumps(arguments.run(arguments), indent=1))


if __name__ == "__main__":
    main()
