from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from anonimed.embeddings import CLUSTERS_FILE, WordClusters, WordEmbeddings, normalise, train_embeddings

CORPUS = (
    "El paciente de 70 años ingresó en el Hospital Clínico de Madrid.\n"
    "La paciente presenta dolor torácico y disnea.\n"
    "Remitido por el médico de familia del centro de salud.\n"
) * 40


def test_trained_vectors_round_trip_and_out_of_vocabulary_words_match_gensim(tmp_path: Path):
    pytest.importorskip("gensim", reason="gensim is a training dependency (pip install anonimed[train])")
    (tmp_path / "corpus.txt").write_text(CORPUS, encoding="utf-8")
    embeddings = train_embeddings([tmp_path], dim=12, vocabulary=8, buckets=500, epochs=2, min_count=1, workers=1)
    assert len(embeddings.words) == 8 and embeddings.dim == 12
    embeddings.save(tmp_path / "vectors.npz")
    loaded = WordEmbeddings.load(tmp_path / "vectors.npz")
    assert loaded.words == embeddings.words
    assert loaded.word_vectors.dtype == np.float16
    for word in ("de", "Cuéllar", "pacientes", "28016"):
        assert np.allclose(loaded.vector(word), embeddings.vector(word), atol=1e-2)
    assert np.array_equal(loaded.vector("1946"), loaded.vector("2003"))  # digits are normalised away


def test_normalise():
    assert normalise("Hospital 12 de Octubre") == "hospital 00 de octubre"


def _toy_embeddings() -> WordEmbeddings:
    # Two clear groups of words (months, relatives), 8-dim vectors around two directions.
    rng = np.random.default_rng(0)
    months, relatives = ["enero", "febrero", "marzo", "abril"], ["madre", "padre", "hermano", "esposa"]
    directions = np.eye(8)[:2] * 5
    vectors = np.stack([directions[group] + rng.normal(0, 0.1, 8) for group in (0, 0, 0, 0, 1, 1, 1, 1)])
    ngrams = rng.normal(0, 1, (50, 8))
    return WordEmbeddings(months + relatives, vectors.astype(np.float32), ngrams.astype(np.float32), 3, 5)


def test_word_clusters_group_alike_words_and_place_unknown_words(tmp_path: Path):
    clusters = WordClusters.fit(_toy_embeddings(), sizes=(2, 3), seed=1)
    assert clusters.sizes == (2, 3)
    assert clusters.clusters("Enero")[0] == clusters.clusters("abril")[0] != clusters.clusters("madre")[0]
    unknown = clusters.clusters("Zubizarreta")  # no vector of its own: the nearest centroid of its n-grams
    assert len(unknown) == 2 and 0 <= unknown[0] < 2 and 0 <= unknown[1] < 3
    clusters.save(tmp_path / CLUSTERS_FILE)
    loaded = WordClusters.load(tmp_path / CLUSTERS_FILE)
    for word in ("enero", "madre", "Zubizarreta", "28016"):
        assert loaded.clusters(word) == clusters.clusters(word)


def test_word_clusters_refuse_impossible_sizes_and_missing_files(tmp_path: Path):
    with pytest.raises(ValueError, match="cluster size 20"):
        WordClusters.fit(_toy_embeddings(), sizes=(20,))
    with pytest.raises(FileNotFoundError, match="word cluster file not found"):
        WordClusters.load(tmp_path / CLUSTERS_FILE)
