"""Turning documents into the arrays the network reads (numpy only: shared by training and inference).

A document is cut into sentences (:func:`anonimed.text.sentences.split_sentences`), each a run of our tokens.  A
token is read three ways: its word vector (frozen embeddings; words outside the stored rows get the mean of their
character n-gram vectors), its characters (ids, case kept) and a casing class.  Batches pad sentences to the longest
one and tokens to the longest token; the network is built so that padding never changes a real position's output.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from anonimed.document import Document
from anonimed.embeddings import WordEmbeddings, normalise
from anonimed.text.sentences import split_sentences
from anonimed.text.tokenize import Token, tokenize

PAD, UNKNOWN = 0, 1  # char ids and casing ids: 0 pads, real values start at 1 (chars: 1 is an unseen char)

# Casing classes of our tokens (letter runs, digit runs, single symbols): what lower-cased embeddings lose.
CASING_CLASSES = ("pad", "digits", "lower", "upper", "title", "single_upper", "mixed", "other")


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


@dataclass
class Batch:
    """Padded network inputs for a batch of sentences (``lengths`` in tokens)."""

    word_vectors: np.ndarray  # float32 [B, T, D]
    char_ids: np.ndarray  # int64 [B, T, C]
    casing: np.ndarray  # int64 [B, T]
    lengths: np.ndarray  # int64 [B]

    def inputs(self) -> dict[str, np.ndarray]:
        return {
            "word_vectors": self.word_vectors,
            "char_ids": self.char_ids,
            "casing": self.casing,
            "lengths": self.lengths,
        }


class TokenEncoder:
    """Maps tokens to word vectors, char ids and casing ids; caches the vectors of words it has already seen."""

    def __init__(self, embeddings: WordEmbeddings, chars: Sequence[str], max_token_chars: int) -> None:
        self.embeddings = embeddings
        self.chars = list(chars)
        self.max_token_chars = max_token_chars
        self._char_ids = {char: index + 2 for index, char in enumerate(self.chars)}
        # Bounded: a detector may live through millions of notes, and n-gram vectors of unseen words cost the most.
        self._vector_of = functools.lru_cache(maxsize=100_000)(embeddings.vector)

    def word_vector(self, text: str) -> np.ndarray:
        return self._vector_of(normalise(text))

    def char_matrix(self, texts: Sequence[str]) -> np.ndarray:
        """[N, C] char ids of ``texts`` (each cut to ``max_token_chars``), zero-padded to the longest."""
        cut = [text[: self.max_token_chars] for text in texts]
        lengths = np.fromiter(map(len, cut), dtype=np.int64, count=len(cut))
        width = int(lengths.max()) if len(cut) else 1
        joined = "".join(cut)
        # Vectorised lookup: map each distinct character once, then scatter every character to its (token, position).
        distinct, inverse = np.unique(np.array(list(joined), dtype=str), return_inverse=True)
        ids = np.array([self._char_ids.get(char, UNKNOWN) for char in distinct], dtype=np.int64)[inverse]
        rows = np.repeat(np.arange(len(cut)), lengths)
        columns = np.arange(len(joined)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        matrix = np.zeros((len(cut), width), dtype=np.int64)
        matrix[rows, columns] = ids
        return matrix

    def batch(self, sentences: Sequence[Sequence[Token]]) -> Batch:
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
        return Batch(word_vectors, char_ids, casing, lengths)


class NoteEncoding:
    """Every token of a note's sentences encoded once, then batches of those sentences cut from it: the same arrays as
    :meth:`TokenEncoder.batch` of the same sentences, without encoding and looking up each small batch apart."""

    def __init__(self, encoder: TokenEncoder, sentences: Sequence[Sequence[Token]]) -> None:
        texts = [token.text for sentence in sentences for token in sentence]
        self.lengths = np.array([len(sentence) for sentence in sentences], dtype=np.int64)
        self.offsets = np.cumsum(self.lengths) - self.lengths  # each sentence's first token among all of them
        self.vectors = np.stack([encoder.word_vector(text) for text in texts])
        self.chars = encoder.char_matrix(texts)
        self.char_lengths = np.fromiter((min(len(t), encoder.max_token_chars) for t in texts), np.int64, len(texts))
        self.casing = np.fromiter(map(casing_class, texts), np.int64, len(texts))

    def batch(self, indices: Sequence[int] | np.ndarray) -> Batch:
        """The batch of the sentences at ``indices``, padded to its longest sentence and its longest token."""
        lengths = self.lengths[indices]
        rows = np.repeat(np.arange(len(lengths)), lengths)
        positions = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        tokens = np.repeat(self.offsets[indices], lengths) + positions
        width = int(lengths.max())
        char_width = max(int(self.char_lengths[tokens].max()), 1)
        word_vectors = np.zeros((len(lengths), width, self.vectors.shape[1]), dtype=np.float32)
        word_vectors[rows, positions] = self.vectors[tokens]
        char_ids = np.zeros((len(lengths), width, char_width), dtype=np.int64)
        char_ids[rows, positions] = self.chars[tokens, :char_width]
        casing = np.zeros((len(lengths), width), dtype=np.int64)
        casing[rows, positions] = self.casing[tokens]
        return Batch(word_vectors, char_ids, casing, lengths)


def length_batches(lengths: Sequence[int], batch_size: int) -> list[np.ndarray]:
    """Indices of sentences grouped into batches of similar length (little padding), in length order."""
    order = np.argsort(np.asarray(lengths), kind="stable")
    return [order[i : i + batch_size] for i in range(0, len(order), batch_size)]
