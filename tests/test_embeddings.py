from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from anonimed.embeddings import WordEmbeddings, normalise, train_embeddings

gensim = pytest.importorskip("gensim", reason="gensim is a training dependency (pip install anonimed[train])")

CORPUS = (
    "El paciente de 70 años ingresó en el Hospital Clínico de Madrid.\n"
    "La paciente presenta dolor torácico y disnea.\n"
    "Remitido por el médico de familia del centro de salud.\n"
) * 40


def test_trained_vectors_round_trip_and_out_of_vocabulary_words_match_gensim(tmp_path: Path):
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
