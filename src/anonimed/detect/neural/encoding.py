"""Turning documents into the arrays the network reads (numpy only: shared by training and inference).

A document is cut into sentences (:func:`anonimed.text.sentences.split_sentences`), each a run of our tokens.  A
token is read three ways: its word vector (frozen embeddings; words outside the stored rows get the mean of their
character n-gram vectors), its characters (ids, case kept) and a casing class; a model trained with character
language models also reads their states at the token's boundaries (:class:`CharLmFeatures`).  Batches pad sentences
to the longest one and tokens to the longest token; the network is built so that padding never changes a real
position's output.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from anonimed.detect.neural.charlm_states import CharLmStates
from anonimed.detect.neural.onnx_split import CHAR_FEATURES
from anonimed.document import Document
from anonimed.embeddings import WordEmbeddings
from anonimed.text.sentences import split_sentences
from anonimed.text.tokenize import Token, tokenize

# The character encoder's output [N, F] for N token texts (see NeuralDetector's cache).
CharFeatureFunction = Callable[[Sequence[str]], np.ndarray]

PAD, UNKNOWN = 0, 1  # char ids and casing ids: 0 pads, real values start at 1 (chars: 1 is an unseen char)

# Casing classes of our tokens (letter runs, digit runs, single symbols): what lower-cased embeddings lose.
CASING_CLASSES = ("pad", "digits", "lower", "upper", "title", "single_upper", "mixed", "other")
CHAR_LM_DIRECTIONS = ("forward", "backward")  # the order of their features


def casing_class(text: str) -> int:
    if text.isdigit():
        return 1
    if text.isalpha():
        if text.islower():
            return 2
        if text.isupper():
            return 5 if len(text) == 1 else 3
        if text[0].isupper() and text[1:].islower():
            return 4
        return 6
    return 7


def document_sentences(document: Document) -> list[list[Token]]:
    """The tokens of each sentence of ``document``, in reading order (sentences without tokens left out).

    The neural members of a model each split the same note: the last notes' sentences are kept (new lists each
    call, so a caller may change its own)."""
    return [list(sentence) for sentence in _text_sentences(document.text)]


@functools.lru_cache(maxsize=4)
def _text_sentences(text: str) -> tuple[tuple[Token, ...], ...]:
    tokens = tokenize(text)
    starts = [t.start for t in tokens]
    sentences: list[tuple[Token, ...]] = []
    for start, end in split_sentences(text):
        first, last = bisect.bisect_left(starts, start), bisect.bisect_left(starts, end)
        if last > first:
            sentences.append(tuple(tokens[first:last]))
    return tuple(sentences)


class CharLmFeatures:
    """Frozen character language models read as token features (Flair's contextual string embeddings).

    Each model reads the whole note at once, not sentence by sentence: one onnxruntime call per note and model, and
    the models see the context they were trained on (whole notes).  A token's feature is every model's state at the
    token's boundaries (:meth:`CharLmStates.word_features`), forward first, rounded to float16 as the word vectors
    are: training keeps the features of every note in memory, and inference then feeds the network the same values.
    """

    def __init__(self, folders: Sequence[str | Path], cached_notes: int | None) -> None:
        models = [CharLmStates(folder) for folder in folders]
        directions = [model.direction for model in models]
        repeated = sorted({direction for direction in directions if directions.count(direction) > 1})
        if repeated:
            raise ValueError(
                f"{', '.join(map(str, folders))}: two {repeated[0]} character language models; "
                "give one forward and/or one backward model"
            )
        order = sorted(range(len(models)), key=lambda index: CHAR_LM_DIRECTIONS.index(directions[index]))
        self.folders = [Path(folders[index]) for index in order]
        self.models = [models[index] for index in order]
        self.dim = sum(model.hidden for model in self.models)
        # None (training): every note's features are computed once and read again at every epoch.
        self.of_note = functools.lru_cache(maxsize=cached_notes)(self._of_note)

    def _of_note(self, text: str) -> np.ndarray:
        """[tokens of the note's sentences, dim] float16, the tokens in the order of :func:`document_sentences`."""
        tokens = [token for sentence in _text_sentences(text) for token in sentence]
        return np.concatenate([model.word_features(text, tokens) for model in self.models], axis=1).astype(np.float16)


def char_lm_features(folders: Sequence[str | Path], cached_notes: int | None) -> CharLmFeatures | None:
    """The features of the models in ``folders``; None when there are none (a model without character LMs)."""
    return CharLmFeatures(folders, cached_notes) if folders else None


@dataclass
class Batch:
    """Padded network inputs for a batch of sentences (``lengths`` in tokens): each token's characters for the whole
    network (training, export), or their encoder's output for the network cut in two (inference,
    :mod:`~anonimed.detect.neural.onnx_split`)."""

    word_vectors: np.ndarray  # float32 [B, T, D]
    char_ids: np.ndarray | None  # int64 [B, T, C]; None when char_features are given
    casing: np.ndarray  # int64 [B, T]
    lengths: np.ndarray  # int64 [B]
    char_lm: np.ndarray | None = None  # float32 [B, T, H], zero at padded positions; models with character LMs
    char_features: np.ndarray | None = None  # float32 [B, T, F]: the character encoder's output

    def inputs(self) -> dict[str, np.ndarray]:
        """The network's inputs by name, in the order of :meth:`network.Tagger.forward`'s arguments."""
        if self.char_features is not None:
            characters = {CHAR_FEATURES: self.char_features}
        elif self.char_ids is not None:
            characters = {"char_ids": self.char_ids}
        else:
            raise ValueError("a batch holds either its tokens' characters or their character features")
        inputs = {
            "word_vectors": self.word_vectors,
            **characters,
            "casing": self.casing,
            "lengths": self.lengths,
        }
        if self.char_lm is not None:
            inputs["char_lm"] = self.char_lm
        return inputs


class TokenEncoder:
    """Maps tokens to word vectors, char ids and casing ids; caches the vectors of words it has already seen."""

    def __init__(
        self,
        embeddings: WordEmbeddings,
        chars: Sequence[str],
        max_token_chars: int,
        char_lm: CharLmFeatures | None = None,
    ) -> None:
        self.embeddings = embeddings
        self.chars = list(chars)
        self.max_token_chars = max_token_chars
        self.char_lm = char_lm
        self._char_ids = {char: index + 2 for index, char in enumerate(self.chars)}
        # Bounded: a detector may live through millions of notes, and n-gram vectors of unseen words cost the most.
        self._vector_of = functools.lru_cache(maxsize=100_000)(embeddings.vector)

    def word_vector(self, text: str) -> np.ndarray:
        # Cached by the token as written: the embeddings normalise it themselves, on a miss only.
        return self._vector_of(text)

    def char_matrix(self, texts: Sequence[str]) -> np.ndarray:
        """[N, C] char ids of ``texts`` (each cut to ``max_token_chars``), zero-padded to the longest."""
        cut = [text[: self.max_token_chars] for text in texts]
        lengths = np.fromiter(map(len, cut), dtype=np.int64, count=len(cut))
        width = int(lengths.max()) if len(cut) else 1
        joined = "".join(cut)
        # Vectorised lookup: map each distinct character once (by code point: no array of strings to sort), then
        # scatter every character to its (token, position).
        codes = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        distinct, inverse = np.unique(codes, return_inverse=True)
        ids = np.array([self._char_ids.get(chr(code), UNKNOWN) for code in distinct.tolist()], dtype=np.int64)[inverse]
        rows = np.repeat(np.arange(len(cut)), lengths)
        columns = np.arange(len(joined)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        matrix = np.zeros((len(cut), width), dtype=np.int64)
        matrix[rows, columns] = ids
        return matrix

    def encode_note(
        self,
        text: str,
        sentences: Sequence[Sequence[Token]],
        char_features: CharFeatureFunction | None = None,
        kept: Sequence[int] | None = None,
    ) -> NoteEncoding:
        """The sentences of the note ``text`` (:func:`document_sentences`) encoded once, character LM features
        included when the model reads them; ``char_features`` gives the character encoder's output for token texts
        (the network cut in two), instead of their characters.  ``kept``: the indices of the only sentences to
        encode (the character LMs still read the whole note)."""
        char_lm = self.char_lm.of_note(text) if self.char_lm else None
        if kept is not None:
            if char_lm is not None:  # the rows of the kept sentences' tokens, in order
                firsts = np.cumsum([0, *map(len, sentences)])
                char_lm = np.concatenate([char_lm[firsts[index] : firsts[index + 1]] for index in kept])
            sentences = [sentences[index] for index in kept]
        return NoteEncoding(self, sentences, char_lm, char_features)

    def batch(self, sentences: Sequence[Sequence[Token]], char_lm_rows: Sequence[np.ndarray] | None = None) -> Batch:
        """The batch of ``sentences``; ``char_lm_rows`` are their character LM features (one array a sentence),
        required when the encoder has character LMs (they depend on the whole note, which a sentence does not hold)."""
        texts = [token.text for sentence in sentences for token in sentence]
        lengths = np.array([len(sentence) for sentence in sentences], dtype=np.int64)
        rows = np.repeat(np.arange(len(sentences)), lengths)
        positions = np.arange(len(texts)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        width = int(lengths.max())
        chars = self.char_matrix(texts)
        word_vectors = np.zeros((len(sentences), width, self.embeddings.dim), dtype=np.float32)
        word_vectors[rows, positions] = np.stack([self.word_vector(text) for text in texts])
        char_ids = np.zeros((len(sentences), width, chars.shape[1]), dtype=np.int64)
        char_ids[rows, positions] = chars
        casing = np.zeros((len(sentences), width), dtype=np.int64)
        casing[rows, positions] = [casing_class(text) for text in texts]
        if self.char_lm is None:
            return Batch(word_vectors, char_ids, casing, lengths)
        if char_lm_rows is None:
            raise ValueError("this encoder reads character LM features: give each sentence's rows")
        char_lm = np.zeros((len(sentences), width, self.char_lm.dim), dtype=np.float32)
        char_lm[rows, positions] = np.concatenate(char_lm_rows)
        return Batch(word_vectors, char_ids, casing, lengths, char_lm)


class NoteEncoding:
    """Every token of a note's sentences encoded once, then batches of those sentences cut from it: the same arrays as
    :meth:`TokenEncoder.batch` of the same sentences, without encoding and looking up each small batch apart."""

    def __init__(
        self,
        encoder: TokenEncoder,
        sentences: Sequence[Sequence[Token]],
        char_lm: np.ndarray | None = None,
        char_features: CharFeatureFunction | None = None,
    ) -> None:
        texts = [token.text for sentence in sentences for token in sentence]
        if char_lm is not None and len(char_lm) != len(texts):
            raise ValueError(f"{len(char_lm)} rows of character LM features for {len(texts)} tokens")
        self.char_lm = char_lm  # [tokens, H], as CharLmFeatures.of_note gives them
        self.lengths = np.array([len(sentence) for sentence in sentences], dtype=np.int64)
        self.offsets = np.cumsum(self.lengths) - self.lengths  # each sentence's first token among all of them
        # np.array of the rows: a third of np.stack's time for a note's few hundred rows, the same array.
        self.vectors = np.array([encoder.word_vector(text) for text in texts])
        # Either the encoder's output for each token [tokens, F], or the characters it reads.
        self.char_features = char_features(texts) if char_features is not None else None
        if self.char_features is None:
            self.chars = encoder.char_matrix(texts)
            self.char_lengths = np.count_nonzero(self.chars, axis=1)  # real characters have ids from 1, padding 0
        self.casing = np.fromiter(map(casing_class, texts), np.int64, len(texts))

    def batch(self, indices: Sequence[int] | np.ndarray) -> Batch:
        """The batch of the sentences at ``indices``, padded to its longest sentence and its longest token."""
        lengths = self.lengths[indices]
        rows = np.repeat(np.arange(len(lengths)), lengths)
        positions = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        tokens = np.repeat(self.offsets[indices], lengths) + positions
        width = int(lengths.max())
        word_vectors = np.zeros((len(lengths), width, self.vectors.shape[1]), dtype=np.float32)
        word_vectors[rows, positions] = self.vectors[tokens]
        casing = np.zeros((len(lengths), width), dtype=np.int64)
        casing[rows, positions] = self.casing[tokens]
        char_ids = char_features = char_lm = None
        if self.char_features is not None:
            char_features = np.zeros((len(lengths), width, self.char_features.shape[1]), dtype=np.float32)
            char_features[rows, positions] = self.char_features[tokens]
        else:
            char_width = max(int(self.char_lengths[tokens].max()), 1)
            char_ids = np.zeros((len(lengths), width, char_width), dtype=np.int64)
            char_ids[rows, positions] = self.chars[tokens, :char_width]
        if self.char_lm is not None:
            char_lm = np.zeros((len(lengths), width, self.char_lm.shape[1]), dtype=np.float32)
            char_lm[rows, positions] = self.char_lm[tokens]
        return Batch(word_vectors, char_ids, casing, lengths, char_lm, char_features)


def length_batches(lengths: Sequence[int], batch_size: int) -> list[np.ndarray]:
    """Indices of sentences grouped into batches of similar length (little padding), in length order."""
    order = np.argsort(np.asarray(lengths), kind="stable")
    return [order[i : i + batch_size] for i in range(0, len(order), batch_size)]
