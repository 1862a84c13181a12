"""Markdown tables for BENCHMARKS.md from the JSON files that the benchmarks write (benchmarks/results/).

    .venv/bin/python benchmarks/tables.py [quality JSON ...]

Prints, for the quality results given (default: every benchmarks/results/quality-*.json): the dev figures of every
model, the robustness table (subtask-1 F1 and the share of gold PHI characters covered, every model × every set), and
the per-type table of the first model's dev row.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def _prf(counts: dict) -> str:
    return f"{counts['precision']:.4f} / {counts['recall']:.4f} / {counts['f1']:.4f}"


def dev_table(rows: list[dict]) -> str:
    lines = [
        "| model | subtask 1 P / R / F1 | leak | subtask 2 strict P / R / F1 | subtask 2 merged P / R / F1 | PHI chars covered | tokens/s |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        if r["set"] == "dev":
            lines.append(
                f"| {r['model']} | {_prf(r['subtask1'])} | {r['subtask1']['leak']:.4f} | {_prf(r['subtask2_strict'])} "
                f"| {_prf(r['subtask2_merged'])} | {r['characters']['recall']:.4f} | {r['tokens_per_second']:,.0f} |"
            )
    return "\n".join(lines)


def robustness_table(rows: list[dict]) -> str:
    models = list(dict.fromkeys(r["model"] for r in rows))
    sets = list(dict.fromkeys(r["set"] for r in rows))
    cells = {(r["model"], r["set"]): r for r in rows}
    lines = ["| set | " + " | ".join(models) + " |", "| --- |" + " --- |" * len(models)]
    for name in sets:
        values = []
        for model in models:
            r = cells.get((model, name))
            values.append(f"{r['subtask1']['f1']:.4f} / {r['characters']['recall']:.4f}" if r else "–")
        lines.append(f"| {name} | " + " | ".join(values) + " |")
    return "\n".join(lines)


def per_type_table(row: dict) -> str:
    lines = ["| type | gold | P | R | F1 |", "| --- | --- | --- | --- | --- |"]
    for label, counts in row["per_type"].items():
        gold = counts["tp"] + counts["fn"]
        if gold:
            lines.append(
                f"| {label} | {gold} | {counts['precision']:.3f} | {counts['recall']:.3f} | {counts['f1']:.3f} |"
            )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "results", nargs="*", type=Path, help="quality JSON files (default: benchmarks/results/quality-*.json)"
    )
    paths = parser.parse_args().results or sorted(RESULTS.glob("quality-*.json"))
    try:
        rows = [row for path in paths for row in json.loads(path.read_text(encoding="utf-8"))["rows"]]
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"cannot read the quality results: {error}", file=sys.stderr)
        return 2
    if not rows:
        print("no quality results: run benchmarks/quality.py first", file=sys.stderr)
        return 2
    print("## Dev\n\n" + dev_table(rows))
    print("\n## Robustness (subtask-1 F1 / PHI characters covered)\n\n" + robustness_table(rows))
    print(f"\n## Per type: {rows[0]['model']}, {rows[0]['set']}\n\n" + per_type_table(rows[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
