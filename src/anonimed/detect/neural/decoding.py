"""Linear-chain CRF decoding in numpy: batched Viterbi and token marginals (forward-backward).

Scores follow one convention everywhere (the torch layer in ``network.py`` uses the same): a tag path ``y`` of a
sentence scores ``start[y0] + sum_t emissions[t, y_t] + sum_t transitions[y_{t-1}, y_t] + end[y_last]``.  Loops run
over positions only; sentences of a batch and tags are handled as arrays.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from anonimed.formats.textio import write_bytes_atomic


def logsumexp(values: np.ndarray, axis: int) -> np.ndarray:
    peak = values.max(axis=axis, keepdims=True)
    peak = np.where(np.isfinite(peak), peak, 0.0)
    return np.squeeze(peak, axis=axis) + np.log(np.exp(values - peak).sum(axis=axis))


def _save_npy(path: Path, array: np.ndarray) -> None:
    buffer = io.BytesIO()
    np.save(buffer, array)
    write_bytes_atomic(path, buffer.getvalue())


def _log_product(log_values: np.ndarray, exp_matrix: np.ndarray) -> np.ndarray:
    """``log(exp(log_values) @ exp_matrix)`` for [B, K] rows, scaled by each row's maximum to stay in range."""
    peak = log_values.max(axis=1, keepdims=True)
    return np.log(np.maximum(np.exp(log_values - peak) @ exp_matrix, 1e-300)) + peak


@dataclass(frozen=True)
class CrfWeights:
    transitions: np.ndarray  # [K, K], from tag (row) to tag (column); forbidden BIOES moves hold a large negative
    start: np.ndarray  # [K]
    end: np.ndarray  # [K]

    def save(self, directory: Path) -> None:
        _save_npy(directory / "transitions.npy", self.transitions.astype(np.float32))
        _save_npy(directory / "boundaries.npy", np.stack([self.start, self.end]).astype(np.float32))

    @classmethod
    def load(cls, directory: Path) -> CrfWeights:
        transitions = np.load(directory / "transitions.npy", allow_pickle=False)
        start, end = np.load(directory / "boundaries.npy", allow_pickle=False)
        return cls(transitions, start, end)

    def viterbi(self, emissions: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """Best tag ids [B, T] (positions past a sentence's length hold 0), computed in the dtype of ``emissions``.

        Candidates are laid out [B, to, from] so that the arg-max runs along contiguous memory; with float32 that is
        some ten times faster than [B, from, to] in float64, and decoding is most of the prediction time.
        """
        batch, width, _ = emissions.shape
        incoming = np.ascontiguousarray(self.transitions.T, dtype=emissions.dtype)[None]  # [1, to, from]
        active = np.arange(width)[None, :] < lengths[:, None]
        score = self.start.astype(emissions.dtype)[None, :] + emissions[:, 0]
        backpointers = np.zeros(emissions.shape, dtype=np.int64)
        tags = incoming.shape[1]
        # Where each (sentence, to-tag) row starts in a flattened [B * to, from] array: the arg-max's values are read
        # with one index (np.take_along_axis built these indices anew at every position).
        row_starts = np.arange(batch * tags) * tags
        for t in range(1, width):
            candidates = score[:, None, :] + incoming
            best = candidates.argmax(axis=2)
            backpointers[:, t] = best
            reached = candidates.ravel()[row_starts + best.ravel()].reshape(batch, tags)
            score = np.where(active[:, t, None], reached + emissions[:, t], score)
        current = (score + self.end.astype(emissions.dtype)[None, :]).argmax(axis=1)
        paths = np.zeros((batch, width), dtype=np.int64)
        rows = np.arange(batch)
        for t in range(width - 1, -1, -1):
            paths[:, t] = np.where(active[:, t], current, 0)
            if t:
                current = np.where(active[:, t], backpointers[rows, t, current], current)
        return paths

    def marginals(self, emissions: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """P(tag at position t | sentence) [B, T, K] (rows past a sentence's length are meaningless)."""
        width = emissions.shape[1]
        active = np.arange(width)[None, :] < lengths[:, None]
        alphas = np.empty(emissions.shape)
        alphas[:, 0] = self.start[None, :] + emissions[:, 0]
        # Each step in probability space is a [B, K] x [K, K] product (see Crf.log_partition in network.py).
        exp_transitions = np.exp(self.transitions)
        for t in range(1, width):
            step = _log_product(alphas[:, t - 1], exp_transitions) + emissions[:, t]
            alphas[:, t] = np.where(active[:, t, None], step, alphas[:, t - 1])
        betas = np.empty(emissions.shape)
        betas[:, width - 1] = self.end[None, :]
        for t in range(width - 2, -1, -1):
            step = _log_product(emissions[:, t + 1] + betas[:, t + 1], exp_transitions.T)
            betas[:, t] = np.where(active[:, t + 1, None], step, self.end[None, :])
        log_partition = logsumexp(alphas[:, -1] + self.end[None, :], axis=1)
        return np.exp(alphas + betas - log_partition[:, None, None])
