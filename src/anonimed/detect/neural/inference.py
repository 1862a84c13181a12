"""The neural detector: the ONNX network run by onnxruntime, CRF decoding in numpy.  No torch on this path.

A model folder holds ``model.json`` (kind ``"neural"``, config, tags, chars, training facts and dev scores),
``char_encoder.onnx`` (a token's characters to its character features) and ``tagger.onnx`` (the rest of the network,
from the token features to the emission scores: :mod:`~anonimed.detect.neural.onnx_split`), ``transitions.npy`` and
``boundaries.npy`` (the CRF), and ``embeddings.npz`` (the word vectors the model reads, float16, with the n-gram table
for unseen words).  A model
trained with character language models also holds a copy of each (``charlm-forward/``, ``charlm-backward/``: their
``charlm.onnx`` and ``charlm.json``), named relative to the folder in ``model.json``'s ``char_lm_folders``: the
folder is self-contained and can be moved.
"""

from __future__ import annotations

import bisect
import itertools
import json
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from anonimed.detect.neural.decoding import CrfWeights
from anonimed.detect.neural.encoding import (
    Batch,
    NoteEncoding,
    TokenEncoder,
    char_lm_features,
    document_sentences,
)
from anonimed.detect.neural.onnx_split import CHAR_ENCODER_FILE, CHAR_FEATURES
from anonimed.document import Document, Span
from anonimed.embeddings import WordEmbeddings
from anonimed.text.tagging import tags_to_spans
from anonimed.text.tokenize import Token

MODEL_KIND = "neural"
NETWORK_FILE = "tagger.onnx"
EMBEDDINGS_FILE = "embeddings.npz"
CHAR_LM_FOLDERS = "char_lm_folders"  # model.json: the copies of the character LMs, relative to the model folder

EmissionFunction = Callable[[Batch], np.ndarray]


def sentences_to_spans(
    sentences: Sequence[Sequence[Token]],
    note: NoteEncoding,
    emissions_of: EmissionFunction,
    crf: CrfWeights,
    tags: Sequence[str],
    source: str,
    batch_size: int = 4,
) -> list[Span]:
    """Spans of the best tag path of every sentence (``note``: their encoding); a span's score is the mean marginal
    of its tokens' tags.

    The network reads small batches of similar length: it costs batch x longest sentence, and a note mixes one-word
    header lines with long paragraphs (16 was about twice as fast as 64 on MEDDOCAN dev, and 4 is a fifth faster
    than 16; the network's output for a sentence is the same in any batch).  The CRF then decodes all the sentences
    of the note at once, longest first, each position only for the sentences that reach it.
    """
    if not len(sentences):
        return []
    order = np.argsort(-note.lengths, kind="stable")
    lengths = note.lengths[order]
    emissions = np.zeros((len(order), int(lengths[0]), len(tags)), dtype=np.float32)
    for first in range(0, len(order), batch_size):
        rows = slice(first, first + batch_size)
        emissions[rows, : lengths[first]] = emissions_of(note.batch(order[rows]))
    paths = crf.viterbi(emissions, lengths)
    tagged = np.flatnonzero(paths.any(axis=1))  # a sentence whose best path is all O has no span to score
    if not len(tagged):
        return []
    width = int(lengths[tagged[0]])
    marginals = crf.marginals(emissions[tagged, :width].astype(np.float64), lengths[tagged])  # float64: exp() of sums
    chosen = np.take_along_axis(marginals, paths[tagged, :width, None], axis=2)[:, :, 0]
    tag_names = np.array(tags, dtype=object)
    spans: list[Span] = []
    for row, index in enumerate(tagged):
        tokens = sentences[order[index]]
        path = paths[index, : len(tokens)]
        spans.extend(tags_to_spans(tokens, list(tag_names[path]), chosen[row, : len(tokens)].tolist(), source))
    return sorted(spans)


def sentences_overlapping(sentences: Sequence[Sequence[Token]], spans: Sequence[Span]) -> list[int]:
    """The indices of the ``sentences`` (in reading order) that share a character with any of ``spans``."""
    if not spans:
        return []
    ordered = sorted((span.start, span.end) for span in spans)
    starts = [start for start, _ in ordered]
    furthest = list(itertools.accumulate((end for _, end in ordered), max))  # the furthest end of the first k spans
    kept = []
    for index, sentence in enumerate(sentences):
        before = bisect.bisect_left(starts, sentence[-1].end)  # the spans that start before the sentence ends
        if before and furthest[before - 1] > sentence[0].start:
            kept.append(index)
    return kept


class CharFeatureCache:
    """The character encoder's output for each token text, computed once and kept: a word met in an earlier note is
    not encoded again (most of a note's words).  Bounded: past ``limit`` texts it starts afresh.  Safe to share
    between threads: a reader holds the dictionary it looked in, which is replaced, never emptied."""

    def __init__(self, session: Any, encoder: TokenEncoder, limit: int = 200_000) -> None:
        self.session = session
        self.encoder = encoder
        self.limit = limit
        self._rows: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        """[N, F] float32: the features of each of ``texts``."""
        known = self._rows
        missing = list(dict.fromkeys(text for text in texts if text not in known))
        fresh: dict[str, np.ndarray] = {}
        if missing:
            # One call for the note's new words: the encoder reads [1, N, C] (a batch of one "sentence").
            computed = self.session.run([CHAR_FEATURES], {"char_ids": self.encoder.char_matrix(missing)[None]})[0]
            fresh = dict(zip(missing, computed))
            with self._lock:
                if len(self._rows) + len(fresh) > self.limit:
                    self._rows = {}
                self._rows.update(fresh)
        return np.array([fresh[text] if text in fresh else known[text] for text in texts])  # np.stack: 3x slower


class NeuralDetector:
    """A BiLSTM-CRF tagger loaded from a model folder (see the module docstring)."""

    def __init__(self, model_dir: str | Path, name: str = "neural") -> None:
        import onnxruntime  # imported here so that the package imports without it

        model_dir = Path(model_dir)
        manifest_path = model_dir / "model.json"
        if not manifest_path.is_file():
            raise FileNotFoundError(f"{model_dir}: not a model folder (no model.json)")
        self.manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        if self.manifest.get("kind") != MODEL_KIND:
            raise ValueError(f"{manifest_path}: kind is {self.manifest.get('kind')!r}, expected {MODEL_KIND!r}")
        self.name = name
        self.tags: list[str] = self.manifest["tags"]
        self.crf = CrfWeights.load(model_dir)
        embeddings = WordEmbeddings.load(model_dir / EMBEDDINGS_FILE)
        # Nothing cached: a detector reads each note once.
        char_lm = char_lm_features([model_dir / name for name in self.manifest.get(CHAR_LM_FOLDERS, [])], 0)
        self.encoder = TokenEncoder(
            embeddings, self.manifest["chars"], self.manifest["config"]["max_token_chars"], char_lm
        )
        if not (model_dir / CHAR_ENCODER_FILE).is_file():
            raise ValueError(
                f"{model_dir}: a neural model folder written by an earlier anonimed (no {CHAR_ENCODER_FILE}); "
                f"cut its network in two with: python scripts/split_neural_onnx.py {model_dir}"
            )
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1  # small matrices: a second thread costs more than it gives
        options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(
            str(model_dir / NETWORK_FILE), options, providers=["CPUExecutionProvider"]
        )
        char_encoder = onnxruntime.InferenceSession(
            str(model_dir / CHAR_ENCODER_FILE), options, providers=["CPUExecutionProvider"]
        )
        self.char_features = CharFeatureCache(char_encoder, self.encoder)

    def emissions(self, batch: Batch) -> np.ndarray:
        return self.session.run(["emissions"], batch.inputs())[0]

    def detect(self, document: Document) -> list[Span]:
        sentences = document_sentences(document)
        if not sentences:
            return []
        note = self.encoder.encode_note(document.text, sentences, self.char_features)
        return sentences_to_spans(sentences, note, self.emissions, self.crf, self.tags, self.name)

    def detect_around(self, document: Document, spans: Sequence[Span]) -> list[Span]:
        """``detect``'s spans in the sentences that overlap ``spans`` (the network reads each sentence on its own, so
        they are the same there), the other sentences not read."""
        sentences = document_sentences(document)
        kept = sentences_overlapping(sentences, spans)
        if not kept:
            return []
        note = self.encoder.encode_note(document.text, sentences, self.char_features, kept)
        chosen = [sentences[index] for index in kept]
        return sentences_to_spans(chosen, note, self.emissions, self.crf, self.tags, self.name)

    def detect_all(self, documents: Iterable[Document]) -> dict[str, list[Span]]:
        return {document.id: self.detect(document) for document in documents}


def load_neural(model_dir: str | Path, name: str = "neural") -> NeuralDetector:
    """The detector of a model folder written by :func:`anonimed.detect.neural.train_neural`."""
    return NeuralDetector(model_dir, name)
