"""The BiLSTM-CRF in PyTorch (a training-time dependency: inference runs the ONNX export of :class:`Tagger`).

:class:`Tagger` maps padded batches to emission scores [B, T, K]; :class:`Crf` holds the transition scores, gives the
negative log-likelihood (forward algorithm) and decodes with Viterbi.  Bidirectional LSTMs are two one-way LSTMs,
the backward one reading each sequence reversed *within its own length*: padding then always trails, so a real
position's output never depends on how much padding the batch has (and the ONNX graph has no packed sequences).
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from anonimed.detect.neural.config import NeuralConfig
from anonimed.detect.neural.encoding import CASING_CLASSES

FORBIDDEN = -10_000.0  # score of a move BIOES does not allow: never chosen, exp() of it is 0


def reverse_within_lengths(values: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    """``values`` [N, L, H] with each row's first ``lengths[n]`` positions reversed and the padding left in place."""
    positions = torch.arange(values.shape[1], device=values.device).unsqueeze(0)
    limits = lengths.unsqueeze(1)
    index = torch.where(positions < limits, limits - 1 - positions, positions)
    return values.gather(1, index.unsqueeze(2).expand(-1, -1, values.shape[2]))


class BiLstm(nn.Module):
    def __init__(self, input_size: int, hidden_size: int) -> None:
        super().__init__()
        self.forward_lstm = nn.LSTM(input_size, hidden_size, batch_first=True)
        self.backward_lstm = nn.LSTM(input_size, hidden_size, batch_first=True)

    def forward(self, values: torch.Tensor, lengths: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Outputs of both directions, each [N, L, H] and aligned with the input positions."""
        ahead, _ = self.forward_lstm(values)
        behind, _ = self.backward_lstm(reverse_within_lengths(values, lengths))
        return ahead, reverse_within_lengths(behind, lengths)


class CharCnn(nn.Module):
    """Ma & Hovy: convolution over a token's character embeddings, max-pooled over its real characters."""

    def __init__(self, config: NeuralConfig) -> None:
        super().__init__()
        self.convolution = nn.Conv1d(
            config.char_dim, config.char_filters, config.char_kernel, padding=config.char_kernel // 2
        )

    def forward(self, embedded: torch.Tensor, char_lengths: torch.Tensor) -> torch.Tensor:
        features = self.convolution(embedded.transpose(1, 2)).transpose(1, 2)  # [N, C, F]
        real = torch.arange(features.shape[1], device=features.device).unsqueeze(0) < char_lengths.unsqueeze(1)
        return features.masked_fill(~real.unsqueeze(2), FORBIDDEN).max(dim=1).values


class CharLstm(nn.Module):
    """Lample et al. / NeuroNER: the final states of a character BiLSTM, both directions concatenated."""

    def __init__(self, config: NeuralConfig) -> None:
        super().__init__()
        self.lstm = BiLstm(config.char_dim, config.char_filters // 2)

    def forward(self, embedded: torch.Tensor, char_lengths: torch.Tensor) -> torch.Tensor:
        lengths = char_lengths.clamp(min=1)  # padding tokens have no characters; their output is never used
        ahead, behind = self.lstm(embedded, lengths)
        last = (lengths - 1).view(-1, 1, 1).expand(-1, 1, ahead.shape[2])
        return torch.cat([ahead.gather(1, last).squeeze(1), behind[:, 0]], dim=1)


class Tagger(nn.Module):
    """Word vectors + char encoding + casing (+ character LM features) → dropout → word BiLSTM → dropout → linear
    emission scores.  ``char_lm_dim`` is the size of the frozen character LMs' features (0: none)."""

    def __init__(
        self, config: NeuralConfig, char_count: int, word_dim: int, tag_count: int, char_lm_dim: int = 0
    ) -> None:
        super().__init__()
        self.char_embedding = nn.Embedding(char_count + 2, config.char_dim, padding_idx=0)
        self.char_encoder = CharCnn(config) if config.char_encoder == "cnn" else CharLstm(config)
        self.casing_embedding = nn.Embedding(len(CASING_CLASSES), config.casing_dim) if config.casing_dim else None
        token_size = word_dim + config.char_filters + config.casing_dim + char_lm_dim
        self.dropout = nn.Dropout(config.dropout)
        self.lstm = BiLstm(token_size, config.word_hidden)
        self.emissions = nn.Linear(2 * config.word_hidden, tag_count)

    def forward(
        self,
        word_vectors: torch.Tensor,
        char_ids: torch.Tensor,
        casing: torch.Tensor,
        lengths: torch.Tensor,
        char_lm: torch.Tensor | None = None,
    ) -> torch.Tensor:
        batch, width, chars = char_ids.shape
        flat_chars = char_ids.reshape(batch * width, chars)
        char_lengths = (flat_chars > 0).sum(dim=1)
        char_features = self.char_encoder(self.char_embedding(flat_chars), char_lengths).reshape(batch, width, -1)
        parts = [word_vectors, char_features]
        if self.casing_embedding is not None:
            parts.append(self.casing_embedding(casing))
        if char_lm is not None:
            parts.append(char_lm)
        tokens = self.dropout(torch.cat(parts, dim=2))
        ahead, behind = self.lstm(tokens, lengths)
        return self.emissions(self.dropout(torch.cat([ahead, behind], dim=2)))


class Crf(nn.Module):
    """Transition scores between tags plus start/end scores; BIOES-forbidden moves are fixed at :data:`FORBIDDEN`."""

    # Buffers registered in __init__ (declared here for the type checker: nn.Module types attributes loosely).
    moves_penalty: torch.Tensor
    first_penalty: torch.Tensor
    last_penalty: torch.Tensor

    def __init__(self, moves: np.ndarray, first: np.ndarray, last: np.ndarray) -> None:
        super().__init__()
        count = len(first)
        self.transitions = nn.Parameter(torch.zeros(count, count))
        self.start = nn.Parameter(torch.zeros(count))
        self.end = nn.Parameter(torch.zeros(count))
        self.register_buffer("moves_penalty", torch.from_numpy(np.where(moves, 0.0, FORBIDDEN).astype(np.float32)))
        self.register_buffer("first_penalty", torch.from_numpy(np.where(first, 0.0, FORBIDDEN).astype(np.float32)))
        self.register_buffer("last_penalty", torch.from_numpy(np.where(last, 0.0, FORBIDDEN).astype(np.float32)))

    def scores(self) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """The effective (transitions, start, end): learned scores with the forbidden moves applied."""
        return (
            self.transitions + self.moves_penalty,
            self.start + self.first_penalty,
            self.end + self.last_penalty,
        )

    def log_partition(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Forward algorithm: log of the summed exp-scores of all tag paths, per sentence [B]."""
        transitions, start, end = self.scores()
        # In probability space each step is one [B, K] x [K, K] product, far cheaper than a [B, K, K] logsumexp; the
        # per-sentence maximum keeps it in range, and the floor keeps log() finite where a forbidden move left 0.
        exp_transitions = transitions.exp()
        alpha = start.unsqueeze(0) + emissions[:, 0]
        for t in range(1, emissions.shape[1]):
            peak = alpha.max(dim=1, keepdim=True).values
            summed = torch.matmul((alpha - peak).exp(), exp_transitions).clamp_min(1e-30)
            step = summed.log() + peak + emissions[:, t]
            alpha = torch.where(mask[:, t].unsqueeze(1), step, alpha)
        return torch.logsumexp(alpha + end.unsqueeze(0), dim=1)

    def path_score(self, emissions: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        transitions, start, end = self.scores()
        emitted = emissions.gather(2, tags.unsqueeze(2)).squeeze(2)
        moved = transitions[tags[:, :-1], tags[:, 1:]]
        lengths = mask.sum(dim=1)
        last_tags = tags.gather(1, (lengths - 1).unsqueeze(1)).squeeze(1)
        return start[tags[:, 0]] + (emitted * mask).sum(dim=1) + (moved * mask[:, 1:]).sum(dim=1) + end[last_tags]

    def negative_log_likelihood(self, emissions: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Summed over the batch."""
        return (self.log_partition(emissions, mask) - self.path_score(emissions, tags, mask)).sum()

    def viterbi(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Best tag ids [B, T] (0 past each sentence's end)."""
        transitions, start, end = self.scores()
        score = start.unsqueeze(0) + emissions[:, 0]
        backpointers = []
        for t in range(1, emissions.shape[1]):
            best, pointer = (score.unsqueeze(2) + transitions.unsqueeze(0)).max(dim=1)
            backpointers.append(pointer)
            score = torch.where(mask[:, t].unsqueeze(1), best + emissions[:, t], score)
        current = (score + end.unsqueeze(0)).argmax(dim=1)
        paths = torch.zeros(mask.shape, dtype=torch.long, device=mask.device)
        rows = torch.arange(mask.shape[0], device=mask.device)
        for t in range(mask.shape[1] - 1, -1, -1):
            paths[:, t] = torch.where(mask[:, t], current, torch.zeros_like(current))
            if t:
                current = torch.where(mask[:, t], backpointers[t - 1][rows, current], current)
        return paths
