"""``anonimed predict IN_DIR OUT_DIR [--model NAME_OR_PATH]``: BRAT annotations for every note of a folder."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from tqdm import tqdm

from anonimed.cli.options import (
    add_encoding_options,
    add_model_options,
    add_rules_options,
    add_run_options,
    detector_spec,
    jobs_for,
)
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
    add_run_options(parser)
    add_encoding_options(parser)
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    from anonimed.parallel import ParallelDetector

    notes = sum(1 for path in Path(arguments.in_dir).glob("*.txt") if path.is_file())
    spec = detector_spec(arguments)
    jobs = jobs_for(arguments, notes)
    quiet = arguments.quiet

    def progress(paths: list[Path]) -> Iterable[Path]:
        return tqdm(paths, desc="predict", unit="note", file=sys.stderr, disable=True if quiet else None)

    options = {"progress": progress, "encoding": arguments.encoding, "errors": arguments.errors}
    if jobs > 1:
        with ParallelDetector(spec, jobs) as parallel:
            summary = predict_dir(parallel, arguments.in_dir, arguments.out_dir, **options)
    else:
        summary = predict_dir(spec.load(), arguments.in_dir, arguments.out_dir, **options)
    for path, problem in summary.failures.items():
        print(f"failed: {path}: {problem}", file=sys.stderr)
    if not quiet:
        print(summary.line() + (f" with {jobs} processes" if jobs > 1 else ""), file=sys.stderr)
    return 1 if summary.failures else 0
