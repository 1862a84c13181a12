"""PNG plots of an evaluation report: per-type F1 bars and the confusion heat map (matplotlib, Agg backend).

The plots depend on the report, never the other way round: :mod:`anonimed.evaluate.report` stays free of matplotlib
(slow to import) and callers that want pictures import :func:`write_plots` from here.
"""

from __future__ import annotations

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: no display is needed or wanted, on servers and in CI alike
import matplotlib.pyplot as plt
import numpy as np

from anonimed.evaluate.matching import MISSED, SPURIOUS
from anonimed.evaluate.report import EvaluationReport
from anonimed.formats.textio import write_bytes_atomic

F1_BARS = "per_type_f1.png"
CONFUSION = "confusion.png"


def write_plots(report: EvaluationReport, directory: str | Path) -> list[Path]:
    """PNG files of the per-type F1 bars and the confusion heat map in ``directory``; returns their paths."""
    directory = Path(directory)
    paths = [directory / F1_BARS, directory / CONFUSION]
    _save(_f1_bars(report), paths[0])
    _save(_confusion_heat_map(report), paths[1])
    return paths


def _save(figure: plt.Figure, path: Path) -> None:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=120, bbox_inches="tight")
    plt.close(figure)
    write_bytes_atomic(path, buffer.getvalue())


def _f1_bars(report: EvaluationReport) -> plt.Figure:
    labels = report.labels
    figure, axes = plt.subplots(figsize=(8, 0.3 * len(labels) + 1.5))
    scores = [report.per_type[label].f1 for label in labels]
    golds = [report.per_type[label].tp + report.per_type[label].fn for label in labels]
    axes.barh(range(len(labels)), scores, color="tab:blue")
    axes.set_yticks(range(len(labels)), [f"{label} ({gold})" for label, gold in zip(labels, golds)], fontsize=8)
    axes.invert_yaxis()
    axes.set_xlim(0, 1)
    axes.set_xlabel("F1 (subtask 1); gold count in brackets")
    axes.set_title(f"Per-type F1 - micro F1 {report.subtask1.f1:.4f}")
    return figure


def _confusion_heat_map(report: EvaluationReport) -> plt.Figure:
    rows, columns = [*report.labels, SPURIOUS], [*report.labels, MISSED]
    matrix = np.zeros((len(rows), len(columns)), dtype=int)
    for (gold, predicted), number in report.confusion.items():
        matrix[rows.index(gold), columns.index(predicted)] = number
    size = 0.35 * len(columns) + 3
    figure, axes = plt.subplots(figsize=(size, size))
    # log scale so that a handful of confusions stays visible beside hundreds of correct spans
    axes.imshow(np.log1p(matrix), cmap="Blues")
    for (row, column), number in np.ndenumerate(matrix):
        if number:
            axes.text(column, row, str(number), ha="center", va="center", fontsize=6)
    axes.set_xticks(range(len(columns)), columns, rotation=90, fontsize=7)
    axes.set_yticks(range(len(rows)), rows, fontsize=7)
    axes.set_xlabel("predicted type")
    axes.set_ylabel("gold type")
    axes.set_title("Subtask 1 confusion (exact offsets)")
    return figure
