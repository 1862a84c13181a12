"""Quality and robustness of detectors on MEDDOCAN dev and on its stress sets.

    .venv/bin/python benchmarks/quality.py [--model default other/model/dir ...] [--sets dev upper ...]
        [--votes balanced recall] [--out benchmarks/results/quality.json]

For every model and set: the MEDDOCAN figures (subtask 1 P/R/F1 and leak, subtask 2 strict and merged), the share
of gold PHI characters covered by predicted spans (type ignored) and the prediction speed (model load excluded).
Writes benchmarks/results/quality.json and prints a Markdown table for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from datetime import date
from pathlib import Path

from anonimed.evaluate import read_sentence_counts, score
from anonimed.formats.brat import read_brat_dir
from anonimed.models import DEFAULT_MODEL_DIR, load_detector
from anonimed.models.ensemble import folder_kind
from anonimed.stress import COMBINED_SETS, STRESS_SETS, stress
from anonimed.text.tokenize import tokenize

ROOT = Path(__file__).resolve().parents[1]
# The shared data folder: $ANONIMED_SHARED, else ../shared beside the repository.
SHARED = Path(os.environ.get("ANONIMED_SHARED", ROOT.parent / "shared"))
MEDDOCAN = SHARED / "data" / "meddocan"
SETS = ("dev", *STRESS_SETS, *COMBINED_SETS)


def measure(model: str, detector, set_name: str, gold: list, sentence_counts: dict[str, int]) -> dict:
    documents = gold if set_name == "dev" else stress(gold, set_name)
    tokens = sum(len(tokenize(d.text)) for d in documents)
    started = time.perf_counter()
    predicted = {d.id: detector.detect(d) for d in documents}
    seconds = time.perf_counter() - started
    report = score(documents, predicted, sentence_counts).to_dict()
    return {
        "model": model,
        "set": set_name,
        "subtask1": report["subtask1"],
        "subtask2_strict": report["subtask2_strict"],
        "subtask2_merged": report["subtask2_merged"],
        "characters": report["characters"],
        "per_type": report["per_type"],
        "tokens": tokens,
        "seconds": seconds,
        "tokens_per_second": tokens / seconds,
    }


def markdown(rows: list[dict]) -> str:
    lines = [
        "| model | set | s1 P | s1 R | s1 F1 | leak | s2 strict F1 | s2 merged R | s2 merged F1 | PHI chars covered | tokens/s |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        s1, strict, merged = r["subtask1"], r["subtask2_strict"], r["subtask2_merged"]
        lines.append(
            f"| {r['model']} | {r['set']} | {s1['precision']:.4f} | {s1['recall']:.4f} | {s1['f1']:.4f} | {s1['leak']:.4f} "
            f"| {strict['f1']:.4f} | {merged['recall']:.4f} | {merged['f1']:.4f} | {r['characters']['recall']:.4f} "
            f"| {r['tokens_per_second']:,.0f} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", nargs="+", default=["default"], help="'default' or model folders")
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS)
    parser.add_argument("--votes", nargs="+", default=[None], help="vote settings to measure for ensembles")
    parser.add_argument(
        "--data", type=Path, default=MEDDOCAN, help="the MEDDOCAN folder (default ../shared/data/meddocan)"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "quality.json")
    arguments = parser.parse_args()
    if not (arguments.data / "dev" / "brat").is_dir():
        print(f"MEDDOCAN dev not found under {arguments.data}", file=sys.stderr)
        return 2
    gold = read_brat_dir(arguments.data / "dev" / "brat")
    sentence_counts = read_sentence_counts(arguments.data / "dev" / "sentences", [d.id for d in gold])
    rows = []
    for model in arguments.model:
        path = DEFAULT_MODEL_DIR if model == "default" else Path(model)
        votes = arguments.votes if folder_kind(path) == "ensemble" else [None]
        for vote in votes:
            started = time.perf_counter()
            detector = load_detector(None if model == "default" else model, vote=vote)
            name = model if vote is None else f"{model} ({vote})"
            print(f"{name}: loaded in {time.perf_counter() - started:.1f} s", flush=True)
            for set_name in arguments.sets:
                rows.append(measure(name, detector, set_name, gold, sentence_counts))
                print(markdown(rows[-1:]).splitlines()[-1], flush=True)
    arguments.out.parent.mkdir(parents=True, exist_ok=True)
    machine = f"{platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}"
    arguments.out.write_text(
        json.dumps({"date": date.today().isoformat(), "machine": machine, "rows": rows}, indent=1), encoding="utf-8"
    )
    print()
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
