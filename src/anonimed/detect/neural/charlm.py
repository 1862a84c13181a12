"""Character language models of our own (contextual string embeddings, as in Flair): training with PyTorch.

A forward model reads a text left to right and predicts each next character; a backward model does the same on the
text reversed.  Their hidden states are contextual features of a word: the forward state after its last character
and the backward state before its first (Akbik et al. 2018, the MEDDOCAN winner's best runs).

Training is truncated back-propagation through time over ``streams`` parallel slices of the concatenated corpus
(documents joined by a blank line): each step reads the next ``window`` characters of every slice, carrying the
hidden state over (detached).  A run writes a checkpoint (weights, optimiser, position, held-out perplexity) every
``checkpoint_minutes`` and at its end; started again on the same folder, it resumes where the checkpoint left off,
so a long run can span several sessions; it can run on an accelerator (``device="cuda"``) and resume on CPU, or the
other way round.  :func:`save_weights` and :func:`load_weights` move a trained model between machines as one compact
file (half-precision weights and the manifest).  The folder also gets ``charlm.onnx`` (the network up to its hidden
states) and ``charlm.json`` (vocabulary, settings, perplexity history): inference runs it with onnxruntime
(:mod:`anonimed.detect.neural.charlm_states`).
"""

from __future__ import annotations

import copy
import io
import json
import logging
import math
import random
import time
import warnings
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Literal

import numpy as np
import torch
from torch import nn

from anonimed.embeddings import corpus_texts
from anonimed.formats.textio import write_bytes_atomic, write_text_atomic

log = logging.getLogger(__name__)

Direction = Literal["forward", "backward"]
PAD, UNKNOWN = 0, 1  # character ids: 0 pads, 1 is a character outside the vocabulary
DOCUMENT_SEPARATOR = "\n\n"
CHECKPOINT_FILE = "checkpoint.pt"
MANIFEST_FILE = "charlm.json"
NETWORK_FILE = "charlm.onnx"


@dataclass(frozen=True)
class CharLmConfig:
    """What shapes a character language model and its training; stored in ``charlm.json``."""

    direction: Direction = "forward"
    embedding_dim: int = 32
    hidden: int = 256
    layers: int = 1
    dropout: float = 0.0  # on the states before the next-character scores (training only; the states are unchanged)
    window: int = 200  # characters a step back-propagates through
    streams: int = 32  # parallel slices of the corpus (the batch)
    learning_rate: float = 2e-3
    gradient_clip: float = 0.5
    min_char_count: int = 20  # rarer characters read as "unknown"
    heldout_share: float = 0.01  # documents kept apart for perplexity
    max_heldout_chars: int = 200_000
    max_minutes: float = 60.0  # this run's budget; a later run resumes
    max_steps: int = 0  # 0: no limit but time
    checkpoint_minutes: float = 5.0
    seed: int = 13
    threads: int = 1
    device: str = "cpu"  # where torch trains: "cpu", "cuda", "cuda:1"…

    def __post_init__(self) -> None:
        if self.direction not in ("forward", "backward"):
            raise ValueError(f"direction must be 'forward' or 'backward', got {self.direction!r}")
        for name in ("embedding_dim", "hidden", "layers", "window", "streams", "min_char_count", "threads"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"dropout must be in [0, 1), got {self.dropout}")
        if not 0.0 < self.heldout_share < 0.5:
            raise ValueError(f"heldout_share must be in (0, 0.5), got {self.heldout_share}")

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> CharLmConfig:
        known = {f.name for f in fields(cls)}
        return cls(**{key: value for key, value in values.items() if key in known})


class CharLanguageModel(nn.Module):
    """Character embedding → LSTM → next-character scores.  :meth:`states` is what the tagger reads."""

    def __init__(self, char_count: int, config: CharLmConfig) -> None:
        super().__init__()
        self.embedding = nn.Embedding(char_count + 2, config.embedding_dim, padding_idx=PAD)
        self.lstm = nn.LSTM(config.embedding_dim, config.hidden, num_layers=config.layers, batch_first=True)
        self.dropout = nn.Dropout(config.dropout)
        self.decoder = nn.Linear(config.hidden, char_count + 2)

    def states(
        self, char_ids: torch.Tensor, carried: tuple[torch.Tensor, torch.Tensor] | None = None
    ) -> tuple[torch.Tensor, tuple[torch.Tensor, torch.Tensor]]:
        """Hidden states [B, L, H] after each character, and the state to carry into the next window."""
        output, state = self.lstm(self.embedding(char_ids), carried)
        return output, state

    def forward(
        self, char_ids: torch.Tensor, carried: tuple[torch.Tensor, torch.Tensor] | None = None
    ) -> tuple[torch.Tensor, tuple[torch.Tensor, torch.Tensor]]:
        output, state = self.states(char_ids, carried)
        return self.decoder(self.dropout(output)), state


class _StatesOnly(nn.Module):
    """The part exported to ONNX: character ids [B, L] → hidden states [B, L, H] (from a zero state)."""

    def __init__(self, model: CharLanguageModel) -> None:
        super().__init__()
        self.model = model

    def forward(self, char_ids: torch.Tensor) -> torch.Tensor:
        return self.model.states(char_ids)[0]


def oriented(text: str, direction: Direction) -> str:
    """The text in the order the model reads it."""
    return text if direction == "forward" else text[::-1]


def build_vocabulary(texts: Iterable[str], min_count: int) -> list[str]:
    """Characters seen at least ``min_count`` times, commonest first (id = index + 2)."""
    counts = Counter(char for text in texts for char in text)
    return [char for char, count in counts.most_common() if count >= min_count]


def encode(text: str, vocabulary: dict[str, int]) -> np.ndarray:
    return np.fromiter((vocabulary.get(char, UNKNOWN) for char in text), dtype=np.int64, count=len(text))


def split_corpus(texts: list[str], heldout_share: float, seed: int) -> tuple[list[str], list[str]]:
    """Training and held-out documents: a seeded draw of whole documents, so held-out text is never trained on."""
    order = list(range(len(texts)))
    random.Random(seed).shuffle(order)
    cut = max(1, round(len(texts) * heldout_share))
    heldout = set(order[:cut])
    return [t for i, t in enumerate(texts) if i not in heldout], [t for i, t in enumerate(texts) if i in heldout]


def _streams(ids: np.ndarray, streams: int) -> torch.Tensor:
    """The corpus cut into ``streams`` equal slices [S, N] (the tail that does not fill a row is dropped)."""
    length = len(ids) // streams
    if length < 2:
        raise ValueError(f"the corpus has {len(ids)} characters: too few for {streams} streams")
    return torch.from_numpy(ids[: length * streams].reshape(streams, length).copy())


@torch.no_grad()
def perplexity(model: CharLanguageModel, ids: np.ndarray, window: int) -> float:
    """Per-character perplexity of ``ids`` read as one stream."""
    model.eval()
    data = torch.from_numpy(ids).unsqueeze(0).to(next(model.parameters()).device)
    total, count, state = 0.0, 0, None
    loss = nn.CrossEntropyLoss(reduction="sum")
    for start in range(0, data.shape[1] - 1, window):
        inputs = data[:, start : start + window]
        targets = data[:, start + 1 : start + 1 + window]
        inputs = inputs[:, : targets.shape[1]]
        scores, state = model(inputs, state)
        total += float(loss(scores.reshape(-1, scores.shape[2]), targets.reshape(-1)))
        count += targets.numel()
    model.train()
    return math.exp(total / max(count, 1))


def train_char_lm(corpus: Iterable[str | Path], out_dir: str | Path, config: CharLmConfig) -> dict[str, Any]:
    """Train (or resume training) a character language model in ``out_dir``; returns the manifest written there."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    device = torch.device(config.device)
    checkpoint_path = out_dir / CHECKPOINT_FILE
    manifest_path = out_dir / MANIFEST_FILE
    texts = [text for text in corpus_texts(corpus) if text.strip()]
    if not texts:
        raise ValueError("the corpus holds no text")
    training_texts, heldout_texts = split_corpus(texts, config.heldout_share, config.seed)
    previous = json.loads(manifest_path.read_text(encoding="utf-8")) if manifest_path.is_file() else None
    if previous is not None and checkpoint_path.is_file():
        if CharLmConfig.from_dict(previous["config"]).direction != config.direction:
            raise ValueError(
                f"{out_dir}: holds a {previous['config']['direction']} model, asked for {config.direction}"
            )
        chars = previous["chars"]
    else:
        chars = build_vocabulary(training_texts, config.min_char_count)
    vocabulary = {char: index + 2 for index, char in enumerate(chars)}
    joined = oriented(DOCUMENT_SEPARATOR.join(training_texts), config.direction)
    data = _streams(encode(joined, vocabulary), config.streams).to(device)
    heldout = encode(oriented(DOCUMENT_SEPARATOR.join(heldout_texts), config.direction), vocabulary)
    heldout = heldout[: config.max_heldout_chars]

    model = CharLanguageModel(len(chars), config).to(device)
    optimiser = torch.optim.Adam(model.parameters(), lr=config.learning_rate)
    position, step, history, trained_seconds = 0, 0, [], 0.0
    if previous is not None and checkpoint_path.is_file():
        saved = torch.load(checkpoint_path, map_location=device, weights_only=False)
        model.load_state_dict(saved["model"])
        if "optimiser" in saved:  # absent from a checkpoint made by load_weights: Adam starts afresh
            optimiser.load_state_dict(saved["optimiser"])
        position, step = saved["position"], saved["step"]
        history, trained_seconds = previous.get("history", []), previous.get("trained_seconds", 0.0)
        log.info("resuming at step %d (character %d of each stream)", step, position)

    def save() -> dict[str, Any]:
        model_perplexity = perplexity(model, heldout, config.window)
        epochs = round(step * config.window / data.shape[1], 3)
        history.append({"step": step, "epochs": epochs, "perplexity": round(model_perplexity, 4)})
        _save_atomic(
            {"model": model.state_dict(), "optimiser": optimiser.state_dict(), "position": position, "step": step},
            checkpoint_path,
        )
        _export_onnx(model, out_dir / NETWORK_FILE)
        manifest = {
            "kind": "charlm",
            "config": asdict(config),
            "chars": chars,
            "training_characters": int(data.numel()),
            "heldout_characters": len(heldout),
            "trained_seconds": round(trained_seconds, 1),
            "history": history,
        }
        write_text_atomic(manifest_path, json.dumps(manifest, ensure_ascii=False, indent=1) + "\n")
        log.info("step %d: held-out perplexity %.3f", step, model_perplexity)
        return manifest

    loss_function = nn.CrossEntropyLoss()
    state: tuple[torch.Tensor, torch.Tensor] | None = None
    started = last_checkpoint = time.monotonic()
    run_started_at = trained_seconds
    while True:
        if position + 1 >= data.shape[1]:
            position, state = 0, None  # an epoch is over: start the streams again from their beginning
        inputs = data[:, position : position + config.window]
        targets = data[:, position + 1 : position + 1 + config.window]
        inputs = inputs[:, : targets.shape[1]]
        if state is not None:
            state = (state[0].detach(), state[1].detach())
        scores, state = model(inputs, state)
        loss = loss_function(scores.reshape(-1, scores.shape[2]), targets.reshape(-1))
        optimiser.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), config.gradient_clip)
        optimiser.step()
        position += targets.shape[1]
        step += 1
        now = time.monotonic()
        trained_seconds = run_started_at + (now - started)
        out_of_time = now - started >= config.max_minutes * 60 or (config.max_steps and step >= config.max_steps)
        if out_of_time or now - last_checkpoint >= config.checkpoint_minutes * 60:
            manifest = save()
            last_checkpoint = time.monotonic()
            if out_of_time:
                return manifest


def save_weights(folder: str | Path, path: str | Path) -> None:
    """One compact file holding a trained model of ``folder``: its manifest and its weights in half precision
    (a sixth of the checkpoint, which also holds Adam's two moments in full precision), to move it between machines."""
    folder = Path(folder)
    manifest = json.loads((folder / MANIFEST_FILE).read_text(encoding="utf-8"))
    saved = torch.load(folder / CHECKPOINT_FILE, map_location="cpu", weights_only=False)
    weights = {name: tensor.half() if tensor.is_floating_point() else tensor for name, tensor in saved["model"].items()}
    _save_atomic(
        {"manifest": manifest, "model": weights, "position": saved["position"], "step": saved["step"]}, Path(path)
    )


def load_weights(path: str | Path, folder: str | Path) -> dict[str, Any]:
    """Make ``folder`` a model folder from a file of :func:`save_weights`: its manifest, ``charlm.onnx`` and a
    checkpoint that training resumes from (with a fresh optimiser).  Returns the manifest."""
    folder = Path(folder)
    if (folder / MANIFEST_FILE).exists():
        raise FileExistsError(f"{folder}: already holds a character language model")
    saved = torch.load(Path(path), map_location="cpu", weights_only=False)
    manifest = saved["manifest"]
    config = CharLmConfig.from_dict({**manifest["config"], "device": "cpu"})
    model = CharLanguageModel(len(manifest["chars"]), config)
    model.load_state_dict({name: tensor.float() for name, tensor in saved["model"].items()})
    folder.mkdir(parents=True, exist_ok=True)
    _save_atomic(
        {"model": model.state_dict(), "position": saved["position"], "step": saved["step"]}, folder / CHECKPOINT_FILE
    )
    _export_onnx(model, folder / NETWORK_FILE)
    write_text_atomic(folder / MANIFEST_FILE, json.dumps(manifest, ensure_ascii=False, indent=1) + "\n")
    return manifest


def _save_atomic(value: dict[str, Any], path: Path) -> None:
    """``torch.save`` to ``path`` without ever leaving a half-written file there."""
    buffer = io.BytesIO()
    torch.save(value, buffer)
    write_bytes_atomic(path, buffer.getvalue())


def _export_onnx(model: CharLanguageModel, path: Path) -> None:
    if next(model.parameters()).device.type != "cpu":
        model = copy.deepcopy(model).cpu()  # the exporter traces on CPU; training goes on with the original
    was_training = model.training
    model.eval()
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        # As for the tagger's export (training.export_onnx): the TorchScript exporter's deprecation and nn.LSTM's
        # traced shape checks are harmless here; the test runs the export at other lengths against torch.
        warnings.simplefilter("ignore")
        torch.onnx.export(
            _StatesOnly(model),
            (torch.ones(1, 8, dtype=torch.long),),
            buffer,  # type: ignore[arg-type]  # torch writes to a file object too; its annotation names paths only
            input_names=["char_ids"],
            output_names=["states"],
            dynamic_axes={"char_ids": {0: "batch", 1: "length"}, "states": {0: "batch", 1: "length"}},
            opset_version=17,
            dynamo=False,
        )
    write_bytes_atomic(path, buffer.getvalue())
    model.train(was_training)
