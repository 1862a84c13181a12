"""``anonimed deidentify INPUT OUTPUT``: replace the PHI of notes (a file, a folder or ``-``) by surrogates or tags."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tqdm import tqdm

from anonimed.cli.options import (
    add_encoding_options,
    add_model_options,
    add_rules_options,
    add_run_options,
    detector_spec,
    jobs_for,
)
from anonimed.formats.registry import OUTPUT_FORMATS

if TYPE_CHECKING:
    from anonimed.detect.base import Detector


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "deidentify",
        help="replace the PHI of notes by realistic surrogates (or tags, masks, pseudonyms)",
        description=(
            "Reads INPUT (a .txt file, a folder of .txt notes searched recursively, or - for standard input) and "
            "writes the de-identified notes to OUTPUT (a file or folder; - for standard output)."
        ),
    )
    parser.add_argument("input", metavar="INPUT")
    parser.add_argument("output", metavar="OUTPUT")
    add_model_options(parser)
    add_rules_options(parser)
    add_run_options(parser)
    parser.add_argument(
        "--operator",
        action="append",
        default=[],
        metavar="[TYPE=]OPERATOR",
        help="tag, tag:coarse, redact, redact:MARKER, mask, mask:keep, hash, hash:LENGTH or surrogate (the default), "
        "for every type or for one TYPE (a PHI type, group or coarse class); repeatable, later ones win",
    )
    parser.add_argument(
        "--config",
        help="a YAML or TOML file: default, operators (TYPE: OPERATOR), sex (keep|swap), kinship (swap|keep)",
    )
    parser.add_argument(
        "--sex", choices=("keep", "swap"), help="keep the patient's sex as written (default) or swap it"
    )
    parser.add_argument(
        "--kinship",
        choices=("swap", "keep"),
        help="swap relatives' kinship words for others (default: madre → abuela) or keep them (family history keeps its "
        "meaning; names are replaced either way)",
    )
    parser.add_argument("--format", choices=OUTPUT_FORMATS, default="text", help="output format (default: text)")
    parser.add_argument("--key", metavar="FILE", help="secret key file: stable surrogates and hashes across runs")
    parser.add_argument("--seed", type=int, help="reproducible surrogates without a key (per document)")
    parser.add_argument("--gold-spans", action="store_true", help="replace the spans of the .ann beside each note")
    parser.add_argument("--audit", metavar="FILE", help="write a JSONL audit: each replaced span, per document")
    parser.add_argument("--audit-originals", action="store_true", help="put the original texts in the audit too")
    parser.add_argument(
        "--engine",
        choices=("local", "spark"),
        default="local",
        help="local (default): this process; spark: Apache Spark (pip install .[spark], docs/spark.md), over a folder "
        "of .txt notes or a .parquet / .jsonl file with id and text columns (written back in the same form)",
    )
    parser.add_argument("--master", metavar="URL", help="--engine spark: the Spark master (default: local[*])")
    add_encoding_options(parser)
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    # Imported here, not at the top: every ``anonimed`` command builds this parser, and ``predict`` or ``evaluate``
    # should not pay for the surrogates' name lists at start-up.
    from anonimed.deidentify import Deidentifier, deidentify_files
    from anonimed.parallel import ParallelDetector
    from anonimed.transform import build_config, load_settings, read_key

    key = read_key(arguments.key) if arguments.key else None
    settings = load_settings(arguments.config) if arguments.config else {}
    if arguments.sex:
        settings["sex"] = arguments.sex
    if arguments.kinship:
        settings["kinship"] = arguments.kinship
    config = build_config(arguments.operator, settings, key)
    if arguments.engine == "spark" or arguments.master:
        return _run_spark(arguments, settings, key)
    if arguments.gold_spans and arguments.rules:
        raise ValueError("--rules adds to a model's spans; with --gold-spans no model runs")
    spec = detector_spec(arguments, for_deidentify=True)
    jobs = 1 if arguments.gold_spans else jobs_for(arguments, _count_notes(arguments.input))
    model: Detector | str | None = arguments.model
    if not arguments.gold_spans and jobs == 1:
        model = spec.load()  # now: a missing model or a bad rule file is one clear error, not one per note
    deidentifier = Deidentifier(model=model, operators=config, key=key, seed=arguments.seed)
    quiet = arguments.quiet
    options = {
        "output_format": arguments.format,
        "gold_spans": arguments.gold_spans,
        "audit_path": arguments.audit,
        "audit_originals": arguments.audit_originals,
        "encoding": arguments.encoding,
        "errors": arguments.errors,
        "progress": lambda items: tqdm(
            items, desc="deidentify", unit="note", file=sys.stderr, disable=True if quiet else (len(items) < 2 or None)
        ),
    }
    if jobs > 1:
        with ParallelDetector(spec, jobs) as parallel:
            summary = deidentify_files(deidentifier, arguments.input, arguments.output, parallel=parallel, **options)
    else:
        summary = deidentify_files(deidentifier, arguments.input, arguments.output, **options)
    for name, problem in summary.failures.items():
        # Read errors already name their file; others get it in front.
        print(f"failed: {problem}" if problem.startswith(name) else f"failed: {name}: {problem}", file=sys.stderr)
    if not quiet:
        lines = summary.lines()
        lines[0] += f" with {jobs} processes" if jobs > 1 else ""
        print("\n".join(lines), file=sys.stderr)
    return 1 if summary.failures else 0


def _count_notes(input_path: str) -> int:
    """How many notes INPUT holds (to choose the processes): the .txt files of a folder, else one."""
    path = Path(input_path)
    return sum(1 for p in path.rglob("*.txt") if p.is_file()) if input_path != "-" and path.is_dir() else 1


def _run_spark(arguments: argparse.Namespace, settings: dict, key: bytes | None) -> int:
    """``--engine spark``: the same options, run by :func:`anonimed.spark.deidentify_path` (the logic lives there)."""
    if arguments.engine != "spark":
        raise ValueError("--master needs --engine spark")
    local_only = [
        name
        for name, value in (
            ("--gold-spans", arguments.gold_spans),
            ("--audit", arguments.audit),
            ("--rules", arguments.rules),
        )
        if value
    ]
    if arguments.format != "text":
        local_only.append(f"--format {arguments.format}")
    if local_only:
        raise ValueError(
            f"--engine spark writes notes in the form they came in; {', '.join(local_only)} needs --engine local"
        )
    try:
        from anonimed import spark
    except ImportError as error:
        raise ValueError(f"--engine spark needs pyspark, pandas and pyarrow (pip install .[spark]): {error}") from None
    options = spark.deidentify_options(
        arguments.model, arguments.operator, key, arguments.seed, arguments.vote, settings=settings
    )
    session, started = spark.spark_session_started(arguments.master)
    try:
        summary = spark.deidentify_path(
            arguments.input, arguments.output, options, session, encoding=arguments.encoding, errors=arguments.errors
        )
    finally:
        if started:  # a session the caller already had (a notebook, a test) stays theirs
            session.stop()
    for name, problem in summary.failures.items():
        print(f"failed: {problem}" if problem.startswith(name) else f"failed: {name}: {problem}", file=sys.stderr)
    if not getattr(arguments, "quiet", False):
        print("\n".join(summary.lines()), file=sys.stderr)
    return 1 if summary.failures else 0
