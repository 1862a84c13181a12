"""Training the BiLSTM-CRF with PyTorch on CPU and writing the model folder (ONNX network + numpy CRF + vectors).

Seeded; Adam; sentence batches of similar length; early stopping on the dev subtask-1 F1 of our MEDDOCAN scorer,
computed through the same decoding code the shipped detector uses.  The dev scores stored in ``model.json`` are those
of the exported model run by onnxruntime, so they are the figures of what ships.  Character LM features (frozen) are
computed once per note, training and dev notes alike, and kept in memory for every epoch.
"""

from __future__ import annotations

import contextlib
import copy
import datetime
import io
import json
import logging
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import torch

from anonimed.detect.neural import charlm_states
from anonimed.detect.neural.config import NeuralConfig
from anonimed.detect.neural.decoding import CrfWeights
from anonimed.detect.neural.encoding import Batch, CharLmFeatures, TokenEncoder, char_lm_features, document_sentences
from anonimed.detect.neural.inference import (
    CHAR_LM_FOLDERS,
    EMBEDDINGS_FILE,
    MODEL_KIND,
    NETWORK_FILE,
    load_neural,
    sentences_to_spans,
)
from anonimed.detect.neural.network import Crf, Tagger
from anonimed.detect.neural.onnx_split import CHAR_ENCODER_FILE, split_network
from anonimed.detect.neural.tagset import allowed_moves, bioes_tags
from anonimed.document import Document, Span
from anonimed.embeddings import WordEmbeddings, normalise
from anonimed.evaluate import score
from anonimed.formats.textio import write_bytes_atomic, write_text_atomic
from anonimed.text.tagging import repair, spans_to_tags
from anonimed.text.tokenize import Token

log = logging.getLogger(__name__)
CHAR_MIN_COUNT = 2  # rarer characters are read as "unknown" in training too, so that id learns something


def model_embeddings(source: WordEmbeddings, documents: Sequence[Document]) -> WordEmbeddings:
    """The rows a model stores: the source vocabulary plus every training word (unseen ones from n-grams), float16.

    The n-gram table comes along so that words first met at prediction time get a vector too.
    """
    sentences = [tokens for document in documents for tokens in document_sentences(document)]
    words = {normalise(token.text) for tokens in sentences for token in tokens}
    extra = sorted(words - set(source.index))
    vectors = [source.word_vectors.astype(np.float16)]
    if extra:
        vectors.append(np.stack([source.vector(word) for word in extra]).astype(np.float16))
    ngrams = source.ngram_vectors.astype(np.float16)
    return WordEmbeddings(list(source.words) + extra, np.concatenate(vectors), ngrams, source.min_n, source.max_n)


def char_inventory(sentences: Sequence[Sequence[Token]]) -> list[str]:
    counts = Counter(char for sentence in sentences for token in sentence for char in token.text)
    return sorted(char for char, count in counts.items() if count >= CHAR_MIN_COUNT)


class Example(NamedTuple):
    """A training sentence: its tokens, gold tag ids and character LM features ([tokens, 0] without LMs)."""

    tokens: list[Token]
    tags: list[int]
    char_lm: np.ndarray


def tagged_sentences(
    documents: Sequence[Document], tag_ids: Mapping[str, int], char_lm: CharLmFeatures | None = None
) -> list[Example]:
    """Sentences with gold BIOES tag ids, repaired per sentence (an entity a sentence cut in two becomes two)."""
    examples = []
    for document in documents:
        sentences = document_sentences(document)
        lengths = [len(tokens) for tokens in sentences]
        note_features = char_lm.of_note(document.text) if char_lm else np.zeros((sum(lengths), 0), np.float16)
        features = np.split(note_features, np.cumsum(lengths)[:-1])  # views: one copy per note, in memory
        for tokens, sentence_features in zip(sentences, features):
            spans = [s for s in document.spans if s.start < tokens[-1].end and s.end > tokens[0].start]
            tags = repair(spans_to_tags(tokens, spans, "BIOES"), "BIOES")
            examples.append(Example(tokens, [tag_ids[tag] for tag in tags], sentence_features))
    return examples


def examples_batch(encoder: TokenEncoder, examples: Sequence[Example]) -> Batch:
    return encoder.batch([example.tokens for example in examples], [example.char_lm for example in examples])


def _tensors(batch: Batch, device: torch.device | None = None) -> tuple[torch.Tensor, ...]:
    return tuple(torch.from_numpy(array).to(device) for array in batch.inputs().values())


def _epoch_batches(lengths: Sequence[int], batch_size: int, rng: np.random.Generator) -> list[np.ndarray]:
    # Shuffle, then sort pools of 20 batches by length: batches vary from epoch to epoch but carry little padding.
    order = rng.permutation(len(lengths))
    pool = 20 * batch_size
    batches: list[np.ndarray] = []
    for start in range(0, len(order), pool):
        chunk = order[start : start + pool]
        chunk = chunk[np.argsort([lengths[i] for i in chunk], kind="stable")]
        batches.extend(chunk[i : i + batch_size] for i in range(0, len(chunk), batch_size))
    return [batches[i] for i in rng.permutation(len(batches))]


class _Averager:
    """Exponential moving average of parameters (DiSMed); ``swapped_in`` evaluates with the averaged weights."""

    def __init__(self, modules: Sequence[torch.nn.Module], decay: float) -> None:
        self.parameters = [p for m in modules for p in m.parameters()]
        self.decay = decay
        self.shadow = [p.detach().clone() for p in self.parameters]
        self.updates = 0

    @torch.no_grad()
    def update(self) -> None:
        # Warm-up as TensorFlow's ExponentialMovingAverage does: with a fixed .999 the average would still hold 60%
        # of the random initial weights after a 500-step epoch.
        self.updates += 1
        decay = min(self.decay, (1 + self.updates) / (10 + self.updates))
        for shadow, parameter in zip(self.shadow, self.parameters):
            shadow.mul_(decay).add_(parameter.detach(), alpha=1.0 - decay)

    @torch.no_grad()
    def _swap(self) -> None:
        for shadow, parameter in zip(self.shadow, self.parameters):
            current = parameter.detach().clone()
            parameter.copy_(shadow)
            shadow.copy_(current)

    @contextlib.contextmanager
    def swapped_in(self) -> Iterator[None]:
        self._swap()
        try:
            yield
        finally:
            self._swap()


def _train_epoch(
    tagger: Tagger,
    crf: Crf,
    optimizer: torch.optim.Optimizer,
    averager: _Averager | None,
    encoder: TokenEncoder,
    examples: Sequence[Example],
    config: NeuralConfig,
    rng: np.random.Generator,
) -> float:
    """One pass over the training sentences; returns the mean negative log-likelihood per sentence."""
    tagger.train()
    parameters = [*tagger.parameters(), *crf.parameters()]
    device = parameters[0].device
    total = 0.0
    for indices in _epoch_batches([len(example.tokens) for example in examples], config.batch_size, rng):
        batch = examples_batch(encoder, [examples[i] for i in indices])
        gold = np.zeros(batch.casing.shape, dtype=np.int64)
        for row, i in enumerate(indices):
            gold[row, : len(examples[i].tags)] = examples[i].tags
        width = int(batch.lengths.max())  # the batch is padded to its longest sentence
        mask = torch.from_numpy(np.arange(width).reshape(1, -1) < batch.lengths.reshape(-1, 1)).to(device)
        emissions = tagger(*_tensors(batch, device))
        loss = crf.negative_log_likelihood(emissions, torch.from_numpy(gold).to(device), mask) / len(indices)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(parameters, config.gradient_clip)
        optimizer.step()
        if averager:
            averager.update()
        total += loss.item() * len(indices)
    return total / len(examples)


def crf_weights(crf: Crf) -> CrfWeights:
    transitions, start, end = (t.detach().cpu().numpy().astype(np.float64) for t in crf.scores())
    return CrfWeights(transitions, start, end)


def torch_emissions(tagger: Tagger) -> Callable[[Batch], np.ndarray]:
    device = next(tagger.parameters()).device

    def emissions(batch: Batch) -> np.ndarray:
        with torch.no_grad():
            return tagger(*_tensors(batch, device)).cpu().numpy()

    return emissions


def predict_with_torch(
    tagger: Tagger, crf: Crf, encoder: TokenEncoder, tags: Sequence[str], documents: Sequence[Document]
) -> dict[str, list[Span]]:
    tagger.eval()
    weights, emissions = crf_weights(crf), torch_emissions(tagger)
    predictions: dict[str, list[Span]] = {}
    for document in documents:
        sentences = document_sentences(document)
        if not sentences:
            predictions[document.id] = []
            continue
        note = encoder.encode_note(document.text, sentences)
        predictions[document.id] = sentences_to_spans(sentences, note, emissions, weights, tags, "neural")
    return predictions


def export_onnx(tagger: Tagger, example: Batch) -> bytes:
    tagger.eval()
    buffer = io.BytesIO()
    token_axes = {0: "sentences", 1: "tokens"}
    with warnings.catch_warnings():
        # Known and harmless here: the TorchScript exporter is deprecated (pinned torch keeps it), nn.LSTM's shape
        # checks are traced as constants, and the LSTM batch-size caveat concerns h0/c0 inputs, which we do not use
        # (tests/test_neural.py runs the export at other batch sizes against torch).
        warnings.simplefilter("ignore")
        _export(tagger, example, buffer, token_axes)
    return buffer.getvalue()


def _export(tagger: Tagger, example: Batch, buffer: io.BytesIO, token_axes: dict[int, str]) -> None:
    axes = {
        "word_vectors": token_axes,
        "char_ids": {**token_axes, 2: "chars"},
        "casing": token_axes,
        "lengths": {0: "sentences"},
        "char_lm": token_axes,
        "emissions": token_axes,
    }
    inputs = list(example.inputs())  # the character LM features are an input of the models that read them only
    torch.onnx.export(
        tagger,
        _tensors(example),
        buffer,  # type: ignore[arg-type]  # torch writes to a file object too; its annotation names paths only
        input_names=inputs,
        output_names=["emissions"],
        dynamic_axes={name: axes[name] for name in [*inputs, "emissions"]},
        opset_version=17,
        dynamo=False,  # the TorchScript exporter handles nn.LSTM and dynamic axes without extra packages
    )


CharLmFiles = dict[str, dict[str, bytes]]  # a character LM's folder name in the model folder -> its files' contents


def char_lm_files(char_lm: CharLmFeatures) -> CharLmFiles:
    """Each character LM's network and manifest (not its torch checkpoint), by its folder name in the model folder,
    forward first.  Read when training starts: the model folder gets the models the tagger learnt from, even if a
    resumed LM run rewrites its own folder in the meantime."""
    names = (charlm_states.NETWORK_FILE, charlm_states.MANIFEST_FILE)
    return {
        f"charlm-{model.direction}": {name: (folder / name).read_bytes() for name in names}
        for folder, model in zip(char_lm.folders, char_lm.models)
    }


def write_model(
    out_dir: Path,
    tagger: Tagger,
    crf: Crf,
    encoder: TokenEncoder,
    tags: Sequence[str],
    example: Batch,
    manifest: dict,
    char_lms: CharLmFiles | None = None,
) -> None:
    """The model folder; ``char_lms`` are the files of the encoder's character LMs, copied in so that the folder is
    self-contained (``model.json`` names the copies relative to the folder)."""
    if encoder.char_lm and not char_lms:
        raise ValueError("the model reads character LMs: give their files, the model folder holds a copy")
    out_dir.mkdir(parents=True, exist_ok=True)
    for folder_name, files in (char_lms or {}).items():
        (out_dir / folder_name).mkdir(exist_ok=True)
        for file_name, content in files.items():
            write_bytes_atomic(out_dir / folder_name / file_name, content)
    if char_lms:
        manifest = {**manifest, CHAR_LM_FOLDERS: list(char_lms)}
    char_encoder, network = split_network(export_onnx(tagger, example))
    write_bytes_atomic(out_dir / CHAR_ENCODER_FILE, char_encoder)
    write_bytes_atomic(out_dir / NETWORK_FILE, network)
    crf_weights(crf).save(out_dir)
    buffer = io.BytesIO()
    embeddings = encoder.embeddings
    np.savez_compressed(
        buffer,
        words=np.array(embeddings.words),
        word_vectors=embeddings.word_vectors.astype(np.float16),
        ngram_vectors=embeddings.ngram_vectors.astype(np.float16),
        ngram_range=np.array([embeddings.min_n, embeddings.max_n]),
    )
    write_bytes_atomic(out_dir / EMBEDDINGS_FILE, buffer.getvalue())
    manifest = {**manifest, "kind": MODEL_KIND, "tags": list(tags), "chars": encoder.chars}
    write_text_atomic(out_dir / "model.json", json.dumps(manifest, ensure_ascii=False, indent=1) + "\n")


def training_device(name: str) -> torch.device:
    """The torch device ``name`` names, checked: a GPU that torch cannot see fails with a clear message."""
    try:
        device = torch.device(name)
    except RuntimeError as error:
        raise ValueError(f"unknown training device {name!r}: use 'cpu', 'cuda' or 'cuda:N'") from error
    if device.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"training device {name!r}: torch sees no CUDA GPU here (train with device 'cpu')")
    return device


def train_neural(
    train_docs: Sequence[Document],
    dev_docs: Sequence[Document],
    out_dir: str | Path,
    config: NeuralConfig = NeuralConfig(),
    seed: int = 13,
    *,
    embeddings: str | Path | WordEmbeddings,
    dev_sentence_counts: Mapping[str, int] | None = None,
    provenance: Mapping[str, Any] | None = None,
) -> dict:
    """Train on ``train_docs``, stop early on ``dev_docs`` and write the model folder ``out_dir``.

    ``embeddings`` are the frozen word vectors (a ``.npz`` of :mod:`anonimed.embeddings` or the loaded object).
    ``provenance`` (data folders, augmentation...) is recorded in ``model.json`` beside the training data counts.
    Returns the dev scores of the exported model (``score(...).to_dict()``), the epoch log and timings.
    """
    started = time.perf_counter()
    out_dir = Path(out_dir)
    if not train_docs or not dev_docs:
        raise ValueError(f"training needs training and dev documents, got {len(train_docs)} and {len(dev_docs)}")
    device = training_device(config.device)  # first: a wrong device fails before any work
    torch.manual_seed(seed)
    torch.set_num_threads(config.threads)
    rng = np.random.default_rng(seed)
    char_lm = char_lm_features(config.char_lm, cached_notes=None)  # first: a wrong folder fails before any work
    copies = char_lm_files(char_lm) if char_lm else None
    source = embeddings if isinstance(embeddings, WordEmbeddings) else WordEmbeddings.load(embeddings)

    tags = bioes_tags(span.label for document in train_docs for span in document.spans)
    tag_ids = {tag: index for index, tag in enumerate(tags)}
    examples = tagged_sentences(train_docs, tag_ids, char_lm)
    encoder = TokenEncoder(
        model_embeddings(source, train_docs),
        char_inventory([example.tokens for example in examples]),
        config.max_token_chars,
        char_lm,
    )
    tagger = Tagger(config, len(encoder.chars), encoder.embeddings.dim, len(tags), char_lm.dim if char_lm else 0)
    tagger.to(device)
    crf = Crf(*allowed_moves(tags)).to(device)
    optimizer = torch.optim.Adam([*tagger.parameters(), *crf.parameters()], lr=config.learning_rate)
    averager = _Averager([tagger, crf], config.ema_decay) if config.ema_decay else None
    log.info(
        "%d training sentences, %d tags, %d chars, %d word rows, %d character LM features",
        len(examples),
        len(tags),
        len(encoder.chars),
        len(encoder.embeddings.words),
        char_lm.dim if char_lm else 0,
    )

    best_f1, best_epoch, best_state, history = -1.0, 0, None, []
    for epoch in range(1, config.max_epochs + 1):
        epoch_started = time.perf_counter()
        loss = _train_epoch(tagger, crf, optimizer, averager, encoder, examples, config, rng)
        train_seconds = time.perf_counter() - epoch_started
        with averager.swapped_in() if averager else contextlib.nullcontext():
            predictions = predict_with_torch(tagger, crf, encoder, tags, dev_docs)
            f1 = score(dev_docs, predictions, dev_sentence_counts).subtask1.f1
            if f1 > best_f1:
                best_f1, best_epoch = f1, epoch
                best_state = (copy.deepcopy(tagger.state_dict()), copy.deepcopy(crf.state_dict()))
        seconds = time.perf_counter() - epoch_started
        history.append(
            {
                "epoch": epoch,
                "loss": loss,
                "dev_f1": f1,
                "train_seconds": round(train_seconds, 1),
                "seconds": round(seconds, 1),
            }
        )
        log.info(
            "epoch %d: loss %.3f, dev subtask-1 F1 %.4f (best %.4f at %d), %.0f s",
            epoch,
            loss,
            f1,
            best_f1,
            best_epoch,
            seconds,
        )
        if epoch - best_epoch >= config.patience or (time.perf_counter() - started) / 60 >= config.max_minutes:
            break

    assert best_state is not None
    tagger.load_state_dict(best_state[0])
    crf.load_state_dict(best_state[1])
    tagger.cpu()  # ONNX export traces on the CPU, where the model will run
    crf.cpu()
    training_seconds = time.perf_counter() - started
    manifest = {
        "config": config.to_dict(),
        "seed": seed,
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "training_data": {
            "train_documents": len(train_docs),
            "train_sentences": len(examples),
            "train_tokens": sum(len(example.tokens) for example in examples),
            "dev_documents": len(dev_docs),
            "embeddings": str(embeddings) if not isinstance(embeddings, WordEmbeddings) else "(in memory)",
            **(provenance or {}),
        },
        "best_epoch": best_epoch,
        "epochs": history,
        "training_seconds": round(training_seconds, 1),
    }
    write_model(out_dir, tagger, crf, encoder, tags, examples_batch(encoder, examples[:1]), manifest, copies)
    detector = load_neural(out_dir)
    dev_scores = score(dev_docs, detector.detect_all(dev_docs), dev_sentence_counts).to_dict()
    manifest["dev_scores"] = {key: dev_scores[key] for key in ("subtask1", "subtask2_strict", "subtask2_merged")}
    manifest = {**detector.manifest, **manifest}
    write_text_atomic(out_dir / "model.json", json.dumps(manifest, ensure_ascii=False, indent=1) + "\n")
    return {"dev_scores": dev_scores, "best_epoch": best_epoch, "epochs": history, "training_seconds": training_seconds}
