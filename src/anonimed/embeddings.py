"""Word embeddings trained by us: fastText-style subword vectors (gensim) stored compactly, looked up without gensim.

The stored file (``.npz``) holds the vectors of the most frequent words and a small table of character n-gram
vectors, both in float16.  A word outside the vocabulary gets the mean of its n-gram vectors, as fastText does, so
names and places never seen in training still get a vector that reflects their spelling.  Tokens are normalised
before lookup (lower case, every digit ``0``): case and digits are the character encoder's business.
"""

from __future__ import annotations

import gzip
import json
import logging
import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from anonimed.formats.textio import read_text, write_bytes_atomic
from anonimed.text.tokenize import tokenize

log = logging.getLogger(__name__)
_DIGIT = re.compile(r"\d")


def normalise(token: str) -> str:
    return _DIGIT.sub("0", token.lower())


def _fasttext_hash(data: bytes) -> int:
    # FNV-1a over bytes taken as signed chars, as fastText (and gensim after it) compute n-gram buckets.
    value = 2166136261
    for byte in data:
        value ^= byte if byte < 128 else byte | 0xFFFFFF00
        value = (value * 16777619) & 0xFFFFFFFF
    return value


def ngram_buckets(word: str, min_n: int, max_n: int, buckets: int) -> list[int]:
    padded = f"<{word}>"
    return [
        _fasttext_hash(padded[i : i + n].encode("utf-8")) % buckets
        for n in range(min_n, max_n + 1)
        for i in range(len(padded) - n + 1)
    ]


def corpus_texts(paths: Iterable[str | Path]) -> Iterator[str]:
    """Texts of ``.txt`` files, folders of them (recursively) and JSON-lines files (``.jsonl``/``.jsonl.gz``, field ``text``)."""
    for path in map(Path, paths):
        if path.is_dir():
            yield from (read_text(p) for p in sorted(path.rglob("*.txt")))
        elif path.name.endswith((".jsonl", ".jsonl.gz")):
            opener = gzip.open if path.suffix == ".gz" else open
            with opener(path, "rt", encoding="utf-8") as stream:
                yield from (json.loads(line)["text"] for line in stream if line.strip())
        else:
            yield read_text(path)


def corpus_sentences(paths: Iterable[str | Path]) -> list[list[str]]:
    """Normalised tokens of every non-empty line of the corpus."""
    return [
        [normalise(t.text) for t in tokenize(line)]
        for text in corpus_texts(paths)
        for line in text.splitlines()
        if line.strip()
    ]


@dataclass
class WordEmbeddings:
    words: list[str]
    word_vectors: np.ndarray
    ngram_vectors: np.ndarray
    min_n: int
    max_n: int

    def __post_init__(self) -> None:
        self.index = {word: i for i, word in enumerate(self.words)}

    @property
    def dim(self) -> int:
        return int(self.word_vectors.shape[1])

    def vector(self, token: str) -> np.ndarray:
        word = normalise(token)
        row = self.index.get(word)
        if row is not None:
            return self.word_vectors[row].astype(np.float32)
        buckets = ngram_buckets(word, self.min_n, self.max_n, len(self.ngram_vectors))
        if not buckets:
            return np.zeros(self.dim, dtype=np.float32)
        return self.ngram_vectors[buckets].astype(np.float32).mean(axis=0)

    def save(self, path: str | Path) -> None:
        import io

        buffer = io.BytesIO()
        np.savez_compressed(
            buffer,
            words=np.array(self.words),
            word_vectors=self.word_vectors.astype(np.float16),
            ngram_vectors=self.ngram_vectors.astype(np.float16),
            ngram_range=np.array([self.min_n, self.max_n]),
        )
        write_bytes_atomic(path, buffer.getvalue())

    @classmethod
    def load(cls, path: str | Path) -> WordEmbeddings:
        with np.load(path, allow_pickle=False) as stored:
            min_n, max_n = (int(x) for x in stored["ngram_range"])
            return cls(
                [str(word) for word in stored["words"]], stored["word_vectors"], stored["ngram_vectors"], min_n, max_n
            )


def train_embeddings(
    corpus: Iterable[str | Path],
    dim: int = 100,
    vocabulary: int = 30_000,
    buckets: int = 30_000,
    epochs: int = 5,
    min_count: int = 3,
    seed: int = 13,
    workers: int = 2,
) -> WordEmbeddings:
    """Train skip-gram fastText vectors with gensim on ``corpus`` and keep the ``vocabulary`` most frequent words."""
    from gensim.models import FastText  # a training-time dependency only

    started = time.perf_counter()
    sentences = corpus_sentences(corpus)
    log.info("corpus: %d lines, %d tokens", len(sentences), sum(map(len, sentences)))
    model = FastText(
        vector_size=dim,
        window=5,
        min_count=min_count,
        sg=1,
        min_n=3,
        max_n=5,
        bucket=buckets,
        epochs=epochs,
        seed=seed,
        workers=workers,
    )
    model.build_vocab(corpus_iterable=sentences)
    model.train(corpus_iterable=sentences, total_examples=len(sentences), epochs=epochs)
    words = model.wv.index_to_key[:vocabulary]
    vectors = np.stack([model.wv.get_vector(word) for word in words])
    log.info("trained %d-dim vectors for %d words in %.0f s", dim, len(words), time.perf_counter() - started)
    return WordEmbeddings(list(words), vectors, np.asarray(model.wv.vectors_ngrams), 3, 5)


CLUSTERS_FILE = "clusters.npz"


@dataclass
class WordClusters:
    """Which k-means cluster of our word vectors a word falls in, at several granularities (a CRF feature).

    Clusters group words that occur in alike contexts (months, relatives, towns, drugs...), so a tagger learns them
    as groups.  The cluster of every vocabulary word is stored; any other word gets the nearest centroid of its
    n-gram vector, so the file holds the n-gram table and the centroids but no word vectors.
    """

    words: list[str]
    word_clusters: np.ndarray  # (words, granularities) cluster ids
    centroids: list[np.ndarray]  # unit-length, one (k, dim) array per granularity
    ngram_vectors: np.ndarray
    min_n: int
    max_n: int

    def __post_init__(self) -> None:
        self.index = {word: i for i, word in enumerate(self.words)}

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(len(c) for c in self.centroids)

    def clusters(self, token: str) -> tuple[int, ...]:
        word = normalise(token)
        row = self.index.get(word)
        if row is not None:
            return tuple(int(c) for c in self.word_clusters[row])
        buckets = ngram_buckets(word, self.min_n, self.max_n, len(self.ngram_vectors))
        vector = self.ngram_vectors[buckets].astype(np.float32).mean(axis=0)
        return tuple(int(np.argmax(centroids @ vector)) for centroids in self.centroids)

    @classmethod
    def fit(cls, embeddings: WordEmbeddings, sizes: Iterable[int] = (64, 256, 1024), seed: int = 0) -> WordClusters:
        """k-means (cosine: on unit-length vectors) of the vocabulary's vectors, one clustering per size."""
        from sklearn.cluster import MiniBatchKMeans

        vectors = embeddings.word_vectors.astype(np.float32)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-8)
        centroids, labels = [], []
        for size in sizes:
            if not 2 <= size <= len(vectors):
                raise ValueError(f"cluster size {size}: needs 2 to {len(vectors)} (the vocabulary's size)")
            kmeans = MiniBatchKMeans(n_clusters=size, random_state=seed, n_init=3, batch_size=4096).fit(vectors)
            found = kmeans.cluster_centers_.astype(np.float32)
            centroids.append(found / np.maximum(np.linalg.norm(found, axis=1, keepdims=True), 1e-8))
            labels.append(kmeans.labels_)
        return cls(
            list(embeddings.words),
            np.stack(labels, axis=1).astype(np.int16),
            centroids,
            embeddings.ngram_vectors,
            embeddings.min_n,
            embeddings.max_n,
        )

    def save(self, path: str | Path) -> None:
        import io

        buffer = io.BytesIO()
        arrays: dict[str, np.ndarray] = {
            "words": np.array(self.words),
            "word_clusters": self.word_clusters,
            "ngram_vectors": self.ngram_vectors.astype(np.float16),
            "ngram_range": np.array([self.min_n, self.max_n]),
            **{f"centroids_{i}": c.astype(np.float16) for i, c in enumerate(self.centroids)},
        }
        np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]  # the stub types its allow_pickle keyword here
        write_bytes_atomic(path, buffer.getvalue())

    @classmethod
    def load(cls, path: str | Path) -> WordClusters:
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"{path}: word cluster file not found (the model's features use clusters)")
        with np.load(path, allow_pickle=False) as stored:
            min_n, max_n = (int(x) for x in stored["ngram_range"])
            count = sum(1 for name in stored.files if name.startswith("centroids_"))
            centroids = [stored[f"centroids_{i}"].astype(np.float32) for i in range(count)]
            return cls(
                [str(word) for word in stored["words"]],
                stored["word_clusters"],
                centroids,
                stored["ngram_vectors"],
                min_n,
                max_n,
            )
