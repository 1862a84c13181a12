"""Learning curves of simulated corpus building: seed-score ranking vs model uncertainty vs random selection.

    nice -n 10 .venv/bin/python benchmarks/corpus_curves.py [--shared DIR] [--strategies seed uncertainty random]
        [--rules default] [--out benchmarks/results/corpus-curves.json] [--figure docs/img/corpus-curves.png]

MEDDOCAN's gold plays the annotator (see :mod:`anonimed.corpus.simulate`): 20 labelled train notes to start, a pool
of the 480 other train notes and 1,500 clinical case reports (labelled by the shipped model, MEDDOCAN's gold
having none for them), rounds of 20 notes up to 200, a CRF
(50 L-BFGS iterations, the default features) trained at each point and scored on MEDDOCAN dev.  Each point is
written to the results file when done and skipped on a rerun, so an interrupted run resumes.  ``--report-only``
remakes the table and the figure from the results file.  Models of the points go to ``--work`` (runs/corpus-curves).
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import os
import statistics
from pathlib import Path
from typing import Any

from anonimed.corpus.ranking import plot_ranking
from anonimed.corpus.simulate import (
    CASE_REPORT_PREFIX,
    Simulation,
    SimulationSettings,
    annotate_case_reports,
    read_case_reports,
)
from anonimed.formats.brat import read_brat_dir
from anonimed.formats.textio import write_bytes_atomic

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ANONIMED_SHARED", ROOT.parent / "shared"))
CASE_REPORTS = Path("data/spanish-clinical-cases-combined/clinical_cases_es.dedup.jsonl.gz")
STRATEGIES = ("random", "uncertainty", "seed")
COLOURS = {"seed": "tab:red", "uncertainty": "tab:green", "random": "tab:grey"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=SHARED, help="the shared folder (default: $ANONIMED_SHARED)")
    parser.add_argument("--strategies", nargs="+", choices=STRATEGIES, default=list(STRATEGIES))
    parser.add_argument("--rules", default="default", help="the rules of the seed score (default: the shipped set)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "corpus-curves.json")
    parser.add_argument("--figure", type=Path, default=ROOT / "docs" / "img" / "corpus-curves.png")
    parser.add_argument("--rank-figure", type=Path, default=ROOT / "docs" / "img" / "corpus-rank.png")
    parser.add_argument("--work", type=Path, default=ROOT / "runs" / "corpus-curves")
    parser.add_argument("--report-only", action="store_true", help="only remake the table and figure")
    arguments = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    if not arguments.report_only:
        simulate(arguments)
    results = json.loads(arguments.out.read_text(encoding="utf-8"))
    curves = curves_of(results)
    print(table(curves))
    print(notes_to_reach(curves))
    plot(curves, arguments.figure)


def simulate(arguments: argparse.Namespace) -> None:
    settings = SimulationSettings()
    meddocan = arguments.shared / "data" / "meddocan"
    train = read_brat_dir(meddocan / "train" / "brat")
    dev = read_brat_dir(meddocan / "dev" / "brat")
    case_reports = read_case_reports(arguments.shared / CASE_REPORTS, settings.case_reports, settings.sample_seed)
    annotator = settings.case_report_annotator
    case_reports = annotate_case_reports(case_reports, annotator, arguments.work / f"case-reports-{annotator}")
    rules = None
    if "seed" in arguments.strategies:
        from anonimed.rules import load_rules

        rules = load_rules(arguments.rules)
    simulation = Simulation(train, dev, case_reports, rules, settings, arguments.out, arguments.work)
    for strategy in arguments.strategies:
        for run in range(settings.random_runs if strategy == "random" else 1):
            simulation.run(strategy, run)
    if rules is not None:  # the ranking an annotator would get at the start, with its elbow
        ranking = simulation.seed_ranking(simulation.seed_sample, simulation.pool)
        plot_ranking(ranking, arguments.rank_figure)
        scored = [d for d in ranking.documents if d.score > 0]
        simulation.results["seed_ranking_at_start"] = {
            "threshold": ranking.threshold,
            "selected": len(ranking.selected),
            "selected_meddocan": sum(not d.startswith(CASE_REPORT_PREFIX) for d in ranking.selected),
            "scoring_above_0": len(scored),
            "case_reports_scoring_above_0": sum(d.id.startswith(CASE_REPORT_PREFIX) for d in scored),
            "pool": len(ranking.documents),
        }
        simulation.save()


def curves_of(results: dict[str, Any]) -> dict[str, dict[int, list[float]]]:
    """Dev NER F1 of each strategy at each number of notes (one value per run; the start point belongs to all)."""
    points = results["points"]
    start = [p for p in points if p["strategy"] == "start"]
    curves: dict[str, dict[int, list[float]]] = {}
    for strategy in STRATEGIES:
        own = [p for p in points if p["strategy"] == strategy]
        if not own:
            continue
        curve: dict[int, list[float]] = {p["notes"]: [p["dev_ner_f1"]] for p in start}
        for point in sorted(own, key=lambda p: (p["notes"], p["run"])):
            curve.setdefault(point["notes"], []).append(point["dev_ner_f1"])
        curves[strategy] = curve
    return curves


def table(curves: dict[str, dict[int, list[float]]]) -> str:
    sizes = sorted({n for curve in curves.values() for n in curve})
    header = "| annotated notes | " + " | ".join(curves) + " |"
    lines = [header, "|" + " ---: |" * (len(curves) + 1)]
    for n in sizes:
        cells = []
        for curve in curves.values():
            values = curve.get(n)
            if not values:
                cells.append("")
            elif len(values) == 1:
                cells.append(f"{values[0]:.3f}")
            else:
                cells.append(f"{statistics.mean(values):.3f} ({min(values):.3f}–{max(values):.3f})")
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def notes_to_reach(curves: dict[str, dict[int, list[float]]]) -> str:
    """For dev F1 targets reached by the random curve's mean, the notes each strategy needs first."""
    if "random" not in curves:
        return ""
    means = {s: {n: statistics.mean(v) for n, v in sorted(c.items())} for s, c in curves.items()}
    lines = []
    for target in sorted({round(value, 2) for value in means["random"].values()}):
        needs = {s: next((n for n, f in m.items() if f >= target), None) for s, m in means.items()}
        shown = ", ".join(f"{s} {n if n is not None else '>' + str(max(means[s]))}" for s, n in needs.items())
        lines.append(f"dev NER F1 >= {target:.2f}: {shown}")
    return "\n".join(lines)


def plot(curves: dict[str, dict[int, list[float]]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4.5))
    for strategy, curve in curves.items():
        sizes = sorted(curve)
        means = [statistics.mean(curve[n]) for n in sizes]
        axes.plot(sizes, means, marker="o", color=COLOURS[strategy], label=strategy)
        if any(len(curve[n]) > 1 for n in sizes):
            axes.fill_between(
                sizes,
                [min(curve[n]) for n in sizes],
                [max(curve[n]) for n in sizes],
                color=COLOURS[strategy],
                alpha=0.2,
            )
    axes.set_xlabel("annotated notes")
    axes.set_ylabel("MEDDOCAN dev F1 (subtask 1, strict)")
    axes.set_title("CRF trained on the built corpus (random: mean and range of 3 runs)")
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right")
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=120, bbox_inches="tight")
    plt.close(figure)
    write_bytes_atomic(path, buffer.getvalue())


if __name__ == "__main__":
    main()
