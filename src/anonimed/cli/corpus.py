"""``anonimed corpus rank RULES LABELLED_DIR POOL_DIR``: which unlabelled notes to annotate next.

anonimed corpus rank RULES LABELLED_DIR POOL_DIR [--by seed|uncertainty] [--model M] [--json FILE] [--plot PNG]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "corpus",
        help="build a corpus for a new hospital: rank unlabelled notes for annotation",
        description="Corpus building: rank the notes of a pool so that annotators label the ones that teach most.",
    )
    actions = parser.add_subparsers(dest="corpus_command", required=True, metavar="ACTION")
    ranking = actions.add_parser(
        "rank",
        help="rank the notes of POOL_DIR for annotation and select those above the elbow of the scores",
        description="Scores every note of POOL_DIR, by the seed score of the rules (the default: the number of "
        "mentions the rules find in the note, weighted by 1 - the rules' strict F1 of their type on LABELLED_DIR and "
        "by 1 - the type's share of the pool's mentions) or by the model's uncertainty (--by uncertainty --model M), "
        "sorts them and selects those at or above the elbow of the sorted scores; notes scoring 0 are never "
        "selected.  Prints the selected note ids, one a line.  See docs/corpus.md.",
    )
    ranking.add_argument("rules", metavar="RULES", help="a rule file or folder, or 'default' for the shipped set")
    ranking.add_argument("labelled_dir", metavar="LABELLED_DIR", help="annotated notes (BRAT) to measure the rules on")
    ranking.add_argument("pool_dir", metavar="POOL_DIR", help="the unlabelled notes to rank (any readable format)")
    ranking.add_argument("--by", choices=("seed", "uncertainty"), default="seed", help="the ranking (default: seed)")
    ranking.add_argument("--model", default=None, help="with --by uncertainty: the model whose uncertainty ranks")
    ranking.add_argument("--json", type=Path, default=None, help="write threshold and ranked documents to this file")
    ranking.add_argument("--plot", type=Path, default=None, help="write the sorted scores and the threshold (PNG)")
    ranking.set_defaults(run=run_rank)


def run_rank(arguments: argparse.Namespace) -> int:
    from anonimed.corpus.ranking import plot_ranking
    from anonimed.corpus.select import rank_by_rules, rank_by_uncertainty
    from anonimed.formats import read_documents
    from anonimed.formats.textio import write_text_atomic

    if arguments.by == "uncertainty" and arguments.model is None:
        raise ValueError("--by uncertainty needs --model (a model name or folder)")
    if arguments.by == "seed" and arguments.model is not None:
        raise ValueError("--model is for --by uncertainty; the seed ranking uses the rules")
    failures: list[str] = []

    def skip(path: str, error: Exception) -> None:
        failures.append(path)
        print(f"skipped: {error}", file=sys.stderr)

    pool = list(read_documents(arguments.pool_dir, on_error=skip))
    if not pool:
        raise ValueError(f"{arguments.pool_dir}: no note to rank")
    if arguments.by == "seed":
        from anonimed.rules import load_rules

        labelled = list(read_documents(arguments.labelled_dir, format="brat"))
        ranking = rank_by_rules(load_rules(arguments.rules), labelled, pool)
    else:
        from anonimed.corpus.uncertainty import load_uncertainty_detector

        ranking = rank_by_uncertainty(load_uncertainty_detector(arguments.model), pool)
    if arguments.json is not None:
        write_text_atomic(arguments.json, json.dumps(ranking.to_json(), indent=2, ensure_ascii=False) + "\n")
    if arguments.plot is not None:
        plot_ranking(ranking, arguments.plot)
    for document_id in ranking.selected:
        print(document_id)
    threshold = "none" if ranking.threshold is None else f"{ranking.threshold:.4g}"
    print(
        f"{len(ranking.documents)} notes ranked by {ranking.by}, {len(ranking.selected)} selected "
        f"(threshold {threshold}), {len(failures)} skipped",
        file=sys.stderr,
    )
    return 1 if failures else 0
