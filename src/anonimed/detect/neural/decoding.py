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

SIMD_WIDTH = 16  # float32 numbers in one AVX-512 register


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
        some ten times faster than [B, from, to] in float64.  The sentences are decoded longest first (see
        :func:`_reaching`; rows in another order are sorted, and their paths put back).
        """
        order = _longest_first(lengths)
        if order is not None:
            return _unsorted(self.viterbi(emissions[order], lengths[order]), order)
        batch, width, tags = emissions.shape
        reaching = _reaching(lengths, width)
        # The from-axis is padded to whole SIMD registers (16 float32) with moves of -inf, which never win: the
        # arg-max along it runs a tenth faster than along the 93 tags of MEDDOCAN's BIOES set.
        sources = -(-tags // SIMD_WIDTH) * SIMD_WIDTH
        incoming = np.full((1, tags, sources), -np.inf, dtype=emissions.dtype)  # [1, to, from]
        incoming[0, :, :tags] = self.transitions.T
        score = np.zeros((batch, sources), dtype=emissions.dtype)
        score[:, :tags] = self.start.astype(emissions.dtype)[None, :] + emissions[:, 0]
        # Read only where written: at the positions each sentence reaches.  Tag ids fit a byte (BIOES of 63 labels).
        backpointers = np.empty(emissions.shape, dtype=np.uint8 if tags <= 256 else np.int64)
        # Where each (sentence, to-tag) row starts in a flattened [B * to, from] array: the arg-max's values are read
        # with one index (np.take_along_axis built these indices anew at every position).
        row_starts = np.arange(batch * tags) * sources
        for t in range(1, width):
            rows = reaching[t]  # the sentences longer than t: the first rows, as the longest come first
            candidates = score[:rows, None, :] + incoming
            best = candidates.argmax(axis=2)
            backpointers[:rows, t] = best
            reached = candidates.ravel()[row_starts[: rows * tags] + best.ravel()].reshape(rows, tags)
            score[:rows, :tags] = reached + emissions[:rows, t]
        current = (score[:, :tags] + self.end.astype(emissions.dtype)[None, :]).argmax(axis=1)
        paths = np.zeros((batch, width), dtype=np.int64)
        for t in range(width - 1, -1, -1):
            rows = reaching[t]
            paths[:rows, t] = current[:rows]
            if t:
                current[:rows] = backpointers[np.arange(rows), t, current[:rows]]
        return paths

    def marginals(self, emissions: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """P(tag at position t | sentence) [B, T, K] (rows past a sentence's length are meaningless)."""
        order = _longest_first(lengths)
        if order is not None:
            return _unsorted(self.marginals(emissions[order], lengths[order]), order)
        width = emissions.shape[1]
        reaching = _reaching(lengths, width)
        alphas = np.zeros(emissions.shape)
        alphas[:, 0] = self.start[None, :] + emissions[:, 0]
        # Each step in probability space is a [B, K] x [K, K] product (see Crf.log_partition in network.py).
        exp_transitions = np.exp(self.transitions)
        for t in range(1, width):
            rows = reaching[t]
            alphas[:rows, t] = _log_product(alphas[:rows, t - 1], exp_transitions) + emissions[:rows, t]
        betas = np.zeros(emissions.shape)
        for t in range(width - 1, -1, -1):
            rows = reaching[t + 1] if t + 1 < width else 0
            betas[rows : reaching[t], t] = self.end[None, :]  # the sentences that end at t
            if rows:
                betas[:rows, t] = _log_product(emissions[:rows, t + 1] + betas[:rows, t + 1], exp_transitions.T)
        ends = alphas[np.arange(len(lengths)), lengths - 1]
        log_partition = logsumexp(ends + self.end[None, :], axis=1)
        return np.exp(alphas + betas - log_partition[:, None, None])


def _longest_first(lengths: np.ndarray) -> np.ndarray | None:
    """The order that puts the longest sentences first (ties in place), or None when they already come so."""
    if np.all(lengths[:-1] >= lengths[1:]):
        return None
    return np.argsort(-lengths, kind="stable")


def _unsorted(values: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``values`` of the rows ``order`` put back in their first places."""
    result = np.empty_like(values)
    result[order] = values
    return result


def _reaching(lengths: np.ndarray, width: int) -> np.ndarray:
    """For each position t < ``width``, how many sentences (longest first) are longer than t: the rows that decode
    it.  Decoding each position only for those rows costs no time on padding, so all the sentences of a note can
    be decoded together, in as many steps as its longest sentence has tokens."""
    return np.searchsorted(-lengths, -np.arange(width), side="left")
