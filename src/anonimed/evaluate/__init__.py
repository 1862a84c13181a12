"""The MEDDOCAN scorer (see docs/evaluation.md): subtask 1 NER and leak, subtask 2 strict and merged,
per-type figures, the type confusion matrix and token-level de-identification figures.

>>> report = evaluate_dirs("dev/brat", "predictions/")      # doctest: +SKIP
>>> report.subtask1.f1, report.leak, report.to_dict()["subtask2_merged"]["f1"]     # doctest: +SKIP
"""

from anonimed.evaluate.counts import Counts
from anonimed.evaluate.report import EvaluationReport
from anonimed.evaluate.scorer import MissingPredictionError, evaluate_dirs, read_sentence_counts, score

__all__ = ["Counts", "EvaluationReport", "MissingPredictionError", "evaluate_dirs", "read_sentence_counts", "score"]
