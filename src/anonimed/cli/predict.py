"""``anonimed predict IN_DIR OUT_DIR [--model NAME_OR_PATH]``: BRAT annotations for every note of a folder."""

from __future__ import annotations

import argparse
import sys

from tqdm import tqdm

from anonimed.cli.options import add_encoding_options, add_model_options, add_rules_options, with_rules_options
from anonimed.predict import predict_dir


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "predict",
        help="annotate every *.txt of a folder with PHI spans (BRAT .ann files)",
        description="Reads every IN_DIR/*.txt and writes OUT_DIR/NAME.ann (BRAT standoff) and a copy of NAME.txt.",
    )
    parser.add_argument("in_dir", metavar="IN_DIR")
    parser.add_argument("out_dir", metavar="OUT_DIR")
    add_model_options(parser)
    add_rules_options(parser)
    add_encoding_options(parser)
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    from anonimed.models import load_detector  # deferred: loading models is the slow part of start-up

    detector = with_rules_options(load_detector(arguments.model, arguments.vote), arguments)
    summary = predict_dir(
        detector,
        arguments.in_dir,
        arguments.out_dir,
        progress=lambda paths: tqdm(paths, desc="predict", unit="doc", file=sys.stderr, disable=None),
        encoding=arguments.encoding,
        errors=arguments.errors,
    )
    for path, problem in summary.failures.items():
        print(f"failed: {path}: {problem}", file=sys.stderr)
    print(summary.line())
    return 1 if summary.failures else 0
