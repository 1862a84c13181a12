"""``anonimed train --model crf|window --train DIR [DIR ...] --out DIR [--dev DIR] [--seed N] [--augment N]``."""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "train",
        help="train a PHI tagger on annotated BRAT folders",
        description="Trains a CRF or a window classifier (features: see MODEL_CARD.md) and writes a model folder "
        "(model.json + the model file) that 'anonimed predict --model DIR' loads.",
    )
    parser.add_argument("--model", choices=("crf", "window"), default="crf", help="the tagger to train (default: crf)")
    parser.add_argument("--train", nargs="+", required=True, metavar="DIR", help="annotated BRAT folder(s)")
    parser.add_argument("--dev", metavar="DIR", help="annotated BRAT folder to score the trained model on")
    parser.add_argument("--out", required=True, metavar="DIR", help="the model folder to write")
    parser.add_argument("--seed", type=int, default=0, help="seed of augmentation and of the SVM (default: 0)")
    parser.add_argument("--augment", type=int, default=0, metavar="N", help="swapped-entity copies of each note")
    parser.add_argument(
        "--gazetteers", metavar="DIR", help="folder of the gazetteers for --augment (default: found above --train)"
    )
    parser.add_argument("--no-patterns", action="store_true", help="no pattern hints, no pattern spans merged")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    from anonimed.detect.features import FeatureConfig
    from anonimed.train import TrainOptions, train_model

    logging.getLogger("anonimed").setLevel(logging.INFO)
    options = TrainOptions(
        kind=arguments.model,
        seed=arguments.seed,
        augment=arguments.augment,
        gazetteer_dir=Path(arguments.gazetteers) if arguments.gazetteers else None,
    )
    if arguments.no_patterns:
        options.features = FeatureConfig(hints=False)
        options.resolver = None
    info = train_model(arguments.train, arguments.out, arguments.dev, options)
    print(f"model written to {arguments.out} ({info.training['seconds']:.0f} s of training)")
    if info.dev_scores:
        summary = {k: info.dev_scores[k] for k in ("subtask1", "subtask2_strict", "subtask2_merged")}
        print(json.dumps(summary, indent=1))
    return 0
