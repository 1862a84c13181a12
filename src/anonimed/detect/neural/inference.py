"""The neural detector: the ONNX network run by onnxruntime, CRF decoding in numpy.  No torch on this path.

A model folder holds ``model.json`` (kind ``"neural"``, config, tags, chars, training facts and dev scores),
``tagger.onnx`` (the network up to the emission scores), ``transitions.npy`` and ``boundaries.npy`` (the CRF), and
``embeddings.npz`` (the word vectors the model reads, float16, with the n-gram table for unseen words).  A model
trained with character language models also holds a copy of each (``charlm-forward/``, ``charlm-backward/``: their
``charlm.onnx`` and ``charlm.json``), named relative to the folder in ``model.json``'s ``char_lm_folders``: the
folder is self-contained and can be moved.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

from anonimed.detect.neural.decoding import CrfWeights
from anonimed.detect.neural.encoding import (
    Batch,
    NoteEncoding,
    TokenEncoder,
    char_lm_features,
    document_sentences,
    length_batches,
)
from anonimed.document import Document, Span
from anonimed.embeddings import WordEmbeddings
from anonimed.text.tagging import tags_to_spans
from anonimed.text.tokenize import Token

MODEL_KIND = "neural"
NETWORK_FILE = "tagger.onnx"
EMBEDDINGS_FILE = "embeddings.npz"
CHAR_LM_FOLDERS = "char_lm_folders"  # model.json: the copies of the character LMs, relative to the model folder

EmissionFunction = Callable[[Batch], np.ndarray]
# Tagged sentences whose marginals are computed together (a position costs little more for 32 rows than for 4).
MARGINAL_BATCH = 32


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

    Small batches of similar length: the network and decoding cost batch x longest sentence, and a note mixes
    one-word header lines with long paragraphs (16 was about twice as fast as 64 on MEDDOCAN dev, and 4 is a fifth
    faster than 16; the network's output for a sentence is the same in any batch).
    """
    tag_names = np.array(tags, dtype=object)
    paths: dict[int, np.ndarray] = {}
    emissions: dict[int, np.ndarray] = {}
    for indices in length_batches([len(s) for s in sentences], batch_size):
        batch = note.batch(indices)
        scores = emissions_of(batch)
        best = crf.viterbi(scores.astype(np.float32), batch.lengths)
        for found in np.flatnonzero(best.any(axis=1)):  # a sentence whose best path is all O has no span to score
            length = int(batch.lengths[found])
            paths[int(indices[found])] = best[found, :length]
            emissions[int(indices[found])] = scores[found, :length]
    # Marginals, for the tagged sentences only, in batches of their own: larger, as they cost little per sentence.
    tagged = sorted(paths)
    spans: list[Span] = []
    for group in length_batches([len(paths[i]) for i in tagged], MARGINAL_BATCH):
        chosen_sentences = [tagged[i] for i in group]
        lengths = np.array([len(paths[i]) for i in chosen_sentences], dtype=np.int64)
        width = int(lengths.max())
        padded = np.zeros((len(chosen_sentences), width, len(tags)), dtype=np.float64)  # float64: exp() of sums
        padded_paths = np.zeros((len(chosen_sentences), width), dtype=np.int64)
        for row, index in enumerate(chosen_sentences):
            padded[row, : lengths[row]] = emissions[index]
            padded_paths[row, : lengths[row]] = paths[index]
        marginals = crf.marginals(padded, lengths)
        chosen = np.take_along_axis(marginals, padded_paths[:, :, None], axis=2)[:, :, 0]
        for row, index in enumerate(chosen_sentences):
            tokens, path = sentences[index], paths[index]
            spans.extend(tags_to_spans(tokens, list(tag_names[path]), chosen[row, : len(tokens)].tolist(), source))
    return sorted(spans)


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
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1  # small matrices: a second thread costs more than it gives
        options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(
            str(model_dir / NETWORK_FILE), options, providers=["CPUExecutionProvider"]
        )

    def emissions(self, batch: Batch) -> np.ndarray:
        return self.session.run(["emissions"], batch.inputs())[0]

    def detect(self, document: Document) -> list[Span]:
        sentences = document_sentences(document)
        if not sentences:
            return []
        note = self.encoder.encode_note(document.text, sentences)
        return sentences_to_spans(sentences, note, self.emissions, self.crf, self.tags, self.name)

    def detect_all(self, documents: Iterable[Document]) -> dict[str, list[Span]]:
        return {document.id: self.detect(document) for document in documents}


def load_neural(model_dir: str | Path, name: str = "neural") -> NeuralDetector:
    """The detector of a model folder written by :func:`anonimed.detect.neural.train_neural`."""
    return NeuralDetector(model_dir, name)
