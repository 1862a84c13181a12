"""``anonimed train --model crf|window|neural|ensemble ... --out DIR``: a thin layer over :mod:`anonimed.train`."""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from anonimed.train import TrainOptions

_FIGURES = ("subtask1", "subtask2_strict", "subtask2_merged")


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "train",
        help="train a PHI tagger on annotated BRAT folders, or tune an ensemble of trained ones",
        description="Trains a CRF, a window classifier (features: see MODEL_CARD.md) or a BiLSTM-CRF (docs/neural.md; "
        "needs pip install .[train]), or tunes the vote of an ensemble of trained models on --dev, and writes a model "
        "folder that 'anonimed predict --model DIR' loads.",
    )
    parser.add_argument(
        "--model", choices=("crf", "window", "neural", "ensemble"), default="crf", help="what to train (default: crf)"
    )
    parser.add_argument("--train", nargs="+", metavar="DIR", help="annotated BRAT folder(s) (all but ensemble)")
    parser.add_argument(
        "--dev",
        metavar="DIR",
        help="annotated BRAT folder to score on (neural: early stopping; ensemble: tuning the vote)",
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="the model folder to write")
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of augmentation, the SVM and the network (default: 0)"
    )
    parser.add_argument("--augment", type=int, default=0, metavar="N", help="swapped-entity copies of each note")
    parser.add_argument(
        "--layouts",
        action="store_true",
        help="write each augmented copy in another layout (capitals, no header keys, other keys, one line...)",
    )
    parser.add_argument(
        "--gazetteers", metavar="DIR", help="folder of the gazetteers for --augment (default: found above --train)"
    )
    parser.add_argument(
        "--no-patterns", action="store_true", help="crf, window: no pattern hints, no pattern spans merged"
    )
    parser.add_argument(
        "--embeddings",
        metavar="FILE",
        help="word vectors from 'anonimed embed': the neural tagger's input (required); crf, window: their k-means "
        "clusters become features",
    )
    neural = parser.add_argument_group("neural tagger")
    neural.add_argument("--preset", default="dismed", help="default, neuroner, nlnde or dismed (default: dismed)")
    neural.add_argument("--options", metavar="JSON", help="config changes, e.g. '{\"max_epochs\": 10}'")
    neural.add_argument(
        "--char-lm",
        nargs="+",
        metavar="DIR",
        help="character language model folder(s) from 'anonimed embed --char-lm', a forward and/or a backward one: "
        "their states become token features (copied into the model folder)",
    )
    ensemble = parser.add_argument_group("ensemble")
    ensemble.add_argument(
        "--members",
        nargs="+",
        metavar="NAME=DIR",
        help="trained model folders that vote, by name; the bare name 'patterns' adds the pattern recognizers",
    )
    ensemble.add_argument(
        "--weights",
        nargs="+",
        type=float,
        default=[0.0, 0.5, 1.0, 1.5, 2.0],
        metavar="W",
        help="weights tried for each member but the first, whose weight is 1 (default: 0 0.5 1 1.5 2)",
    )
    ensemble.add_argument(
        "--thresholds",
        nargs="+",
        type=float,
        default=[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8],
        metavar="T",
        help="vote thresholds tried, as shares of the total weight (default: 0.1 to 0.8 by 0.1)",
    )
    ensemble.add_argument(
        "--votes-from",
        metavar="DIR",
        help="take the votes of this tuned ensemble instead of tuning (members retrained on more data, dev included)",
    )
    ensemble.add_argument(
        "--votes",
        metavar="FILE",
        help="with --votes-from: a JSON file of vote settings by name that replace its votes "
        "(votes decided on cross-validated folds, e.g. scripts/default-votes.json)",
    )
    ensemble.add_argument(
        "--stress-sets",
        nargs="+",
        default=[],
        metavar="SET",
        help="tune on dev and on these stress versions of it (upper, lower, one_line, no_keys, other_keys, radiology)",
    )
    ensemble.add_argument(
        "--vote-kinds",
        nargs="+",
        choices=("hard", "soft"),
        default=["hard", "soft"],
        help="hard votes (one weight a member) and/or soft ones (weight × span score); default: both",
    )
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    from anonimed.detect.features import FeatureConfig
    from anonimed.train import TrainOptions, train_model

    logging.getLogger("anonimed").setLevel(logging.INFO)
    if arguments.model == "ensemble":
        return _train_ensemble(arguments)
    if not arguments.train:
        raise ValueError(f"--model {arguments.model} needs --train DIR [DIR ...]")
    options = TrainOptions(
        seed=arguments.seed,
        augment=arguments.augment,
        layouts=arguments.layouts,
        gazetteer_dir=Path(arguments.gazetteers) if arguments.gazetteers else None,
    )
    if arguments.model == "neural":
        return _train_neural(arguments, options)
    options.kind = arguments.model
    options.features = FeatureConfig(hints=not arguments.no_patterns, clusters=bool(arguments.embeddings))
    options.embeddings = Path(arguments.embeddings) if arguments.embeddings else None
    if arguments.no_patterns:
        options.resolver = None
    info = train_model(arguments.train, arguments.out, arguments.dev, options)
    print(f"model written to {arguments.out} ({info.training['seconds']:.0f} s of training)")
    if info.dev_scores:
        _print_figures(info.dev_scores)
    return 0


def _train_neural(arguments: argparse.Namespace, options: TrainOptions) -> int:
    from anonimed.detect.neural import preset
    from anonimed.train import train_neural_model

    if not arguments.dev or not arguments.embeddings:
        raise ValueError("--model neural needs --dev (early stopping) and --embeddings (from 'anonimed embed')")
    config = preset(arguments.preset)
    if arguments.options:
        config = config.with_options(**json.loads(arguments.options))
    if arguments.char_lm:
        config = config.with_options(char_lm=tuple(arguments.char_lm))
    result = train_neural_model(arguments.train, arguments.out, arguments.dev, arguments.embeddings, config, options)
    print(
        f"model written to {arguments.out} ({result['training_seconds']:.0f} s of training, "
        f"epoch {result['best_epoch']} kept)"
    )
    _print_figures(result["dev_scores"])
    return 0


def _train_ensemble(arguments: argparse.Namespace) -> int:
    from anonimed.models.ensemble import PATTERNS
    from anonimed.train import refit_ensemble_model, train_ensemble_model

    if not arguments.members or not (arguments.dev or arguments.votes_from):
        raise ValueError(
            "--model ensemble needs --members NAME=DIR ... and --dev DIR (the vote is tuned there) or --votes-from DIR"
        )
    members: dict[str, str | None] = {}
    for member in arguments.members:
        name, _, folder = member.partition("=")
        if not name or (not folder and name != PATTERNS) or name in members:
            raise ValueError(f"--members {member!r}: give NAME=DIR (distinct names) or the bare name '{PATTERNS}'")
        members[name] = folder or None
    if arguments.votes and not arguments.votes_from:
        raise ValueError("--votes replaces the votes of a tuned ensemble: give --votes-from DIR too")
    if arguments.votes_from:
        votes = refit_ensemble_model(members, arguments.out, arguments.votes_from, arguments.votes)
        origin = (
            f"{arguments.votes_from} with the votes of {arguments.votes}" if arguments.votes else arguments.votes_from
        )
        print(f"ensemble written to {arguments.out}, voting as {origin}")
        print(json.dumps(votes, indent=1))
        return 0
    result = train_ensemble_model(
        members,
        arguments.out,
        arguments.dev,
        arguments.weights,
        arguments.thresholds,
        arguments.stress_sets,
        [kind == "soft" for kind in arguments.vote_kinds],
    )
    print(f"ensemble written to {arguments.out}")
    print(json.dumps(result["votes"], indent=1))
    for setting in ("balanced", "recall"):
        print(f"dev, {setting} vote:")
        _print_figures(result[setting])
    return 0


def _print_figures(scores: dict) -> None:
    print(json.dumps({key: scores[key] for key in _FIGURES}, indent=1))
