"""Model folders: train → model.json + model file → load_detector; the shipped default model finds a name."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from anonimed.detect.crf import CrfSettings
from anonimed.detect.features import FeatureConfig
from anonimed.document import Document
from anonimed.formats.brat import read_brat_dir, write_brat
from anonimed.formats.errors import FormatError
from anonimed.models import DEFAULT_MODEL_DIR, ModelNotFoundError, load_detector
from anonimed.models.augment import swap_entities
from anonimed.train import TrainOptions, train_model

NOTE = "Nombre: Ernesto.\nApellidos: Rivera Bueno.\n"


def test_the_shipped_model_finds_the_patient_name() -> None:
    if not (DEFAULT_MODEL_DIR / "model.json").is_file():
        pytest.skip("the shipped default model is not built yet")
    detector = load_detector()
    assert load_detector("default") is detector, "the default model is loaded once and shared"
    spans = detector.detect(Document("note", NOTE))
    found = {(NOTE[s.start : s.end], s.label) for s in spans}
    assert ("Ernesto", "NOMBRE_SUJETO_ASISTENCIA") in found
    assert ("Rivera Bueno", "NOMBRE_SUJETO_ASISTENCIA") in found


def test_the_shipped_model_reads_digit_like_characters_that_int_cannot() -> None:
    """Superscripts, fractions and other scripts' digits pass ``str.isdigit`` but not ``int``: a real note had ``³10``."""
    text = "Nombre: Ana Ros. FC normal ³10 latidos/min, ½ comprimido, ١٢ mg, Ⅻ par. Ingreso: 03/03/2015.\n"
    found = {text[s.start : s.end] for s in load_detector().detect(Document("note", text))}
    assert {"Ana Ros", "03/03/2015"} <= found


def test_anything_but_a_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelNotFoundError, match="not a model"):
        load_detector("no-such-model")
    with pytest.raises(FormatError, match=r"model\.json"):
        load_detector(str(tmp_path))
    (tmp_path / "model.json").write_text(json.dumps({"format_version": 1, "kind": "hmm"}))
    with pytest.raises(FormatError, match="unknown model kind 'hmm'"):
        load_detector(str(tmp_path))


@pytest.mark.parametrize("kind", ["crf", "window"])
def test_train_writes_a_model_folder_that_loads(kind: str, meddocan: Path, tmp_path: Path) -> None:
    train_dir, dev_dir = tmp_path / "train", tmp_path / "dev"
    documents = read_brat_dir(meddocan / "train" / "brat")[:10]
    for document in documents[:8]:
        write_brat(document, train_dir)
    for document in documents[8:]:
        write_brat(document, dev_dir)
    options = TrainOptions(
        kind=kind,
        features=FeatureConfig(hints=False, word_frequency=False),
        crf=CrfSettings(max_iterations=20),
        resolver=None,
    )
    info = train_model([train_dir], tmp_path / "model", dev_dir, options)
    stored = json.loads((tmp_path / "model" / "model.json").read_text())
    assert stored["kind"] == kind and stored["training"]["documents"] == 8
    assert info.dev_scores is not None and 0.0 < stored["dev_scores"]["subtask1"]["f1"] <= 1.0
    detector = load_detector(str(tmp_path / "model"))
    spans = detector.detect(Document("x", documents[9].text))
    assert all(0 <= s.start < s.end <= len(documents[9].text) for s in spans)


def test_swapping_entities_moves_every_later_span_exactly() -> None:
    import random

    from anonimed.document import Span
    from anonimed.models.augment import Gazetteers

    text = "Nombre: Ernesto Rivera. Vive en Lugo (España). Fecha: 03/03/1946."
    spans = [
        Span(8, 22, "NOMBRE_SUJETO_ASISTENCIA"),
        Span(32, 36, "TERRITORIO"),
        Span(38, 44, "PAIS"),
        Span(54, 64, "FECHAS"),
    ]
    gazetteers = Gazetteers(
        ("Lucía",), ("Castellanos", "Ortiz"), ("Villanueva de la Serena",), ("06700",), ("Perú",), ()
    )
    copy = swap_entities(Document("n", text, spans), gazetteers, random.Random(3))
    assert [copy.text[s.start : s.end] for s in copy.spans][1:] == ["Villanueva de la Serena", "Perú", "03/03/1946"]
    assert copy.text[copy.spans[0].start : copy.spans[0].end] in {
        "Castellanos Ortiz",
        "Ortiz Castellanos",
        "Ortiz Ortiz",
        "Castellanos Castellanos",
    }
    assert copy.text.startswith("Nombre: ") and copy.text.endswith(". Fecha: 03/03/1946.")


def test_the_train_command_writes_a_model_folder(
    meddocan: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from anonimed.cli import main

    for document in read_brat_dir(meddocan / "train" / "brat")[:4]:
        write_brat(document, tmp_path / "train")
    code = main(
        [
            "train",
            "--model",
            "window",
            "--train",
            str(tmp_path / "train"),
            "--out",
            str(tmp_path / "m"),
            "--no-patterns",
        ]
    )
    assert code == 0 and "model written to" in capsys.readouterr().out
    assert json.loads((tmp_path / "m" / "model.json").read_text())["resolver"] is None


def test_layout_augmentation_rewrites_each_copy_and_keeps_its_spans_on_the_same_entities() -> None:
    from anonimed.document import Span
    from anonimed.models.augment import Gazetteers, augmented_copies

    text = "Datos del paciente.\nNombre: Ernesto.\nApellidos: Rivera Bueno.\nDomicilio: Calle Mayor 3.\n"
    spans = [Span(28, 35, "NOMBRE_SUJETO_ASISTENCIA"), Span(48, 60, "NOMBRE_SUJETO_ASISTENCIA"), Span(73, 86, "CALLE")]
    notes = [Document(f"n{i}", text, spans) for i in range(6)]
    gazetteers = Gazetteers(("Lucía",), ("Ortiz",), ("Lugo",), ("27001",), ("Perú",), ())
    copies = augmented_copies(notes, gazetteers, 1, seed=5, layouts=True)
    assert [c.id for c in copies] == [f"n{i}~aug1" for i in range(6)]
    assert len({c.text for c in copies}) == 6, "each copy is written in another layout"
    for copy in copies:
        assert [copy.text[s.start : s.end].lower() for s in copy.spans][2] == "calle mayor 3"
        assert all(copy.text[s.start : s.end].strip() for s in copy.spans)
    assert augmented_copies(notes, gazetteers, 1, seed=5, layouts=True)[3].text == copies[3].text, "seeded"


def test_layouts_without_augmented_copies_are_refused(tmp_path: Path) -> None:
    from anonimed.train import training_documents

    write_brat(Document("n", NOTE), tmp_path / "train")
    with pytest.raises(ValueError, match="augment"):
        training_documents([tmp_path / "train"], TrainOptions(layouts=True))


def test_a_crf_with_word_cluster_features_saves_its_clusters_and_loads(meddocan: Path, tmp_path: Path) -> None:
    from anonimed.embeddings import CLUSTERS_FILE, WordEmbeddings

    rng = np.random.default_rng(0)
    words = [f"palabra{i}" for i in range(40)] + ["paciente", "de", "años"]
    vectors = WordEmbeddings(words, rng.normal(0, 1, (len(words), 8)), rng.normal(0, 1, (100, 8)), 3, 5)
    vectors.save(tmp_path / "vectors.npz")
    for document in read_brat_dir(meddocan / "train" / "brat")[:6]:
        write_brat(document, tmp_path / "train")
    options = TrainOptions(
        features=FeatureConfig(hints=False, word_frequency=False, clusters=True),
        crf=CrfSettings(max_iterations=10),
        resolver=None,
        embeddings=tmp_path / "vectors.npz",
        cluster_sizes=(4, 8),
    )
    train_model([tmp_path / "train"], tmp_path / "model", None, options)
    assert (tmp_path / "model" / CLUSTERS_FILE).is_file()
    detector = load_detector(str(tmp_path / "model"))
    text = read_brat_dir(meddocan / "train" / "brat")[7].text
    assert all(0 <= s.start < s.end <= len(text) for s in detector.detect(Document("x", text)))
    (tmp_path / "model" / CLUSTERS_FILE).unlink()
    with pytest.raises(FileNotFoundError, match="word cluster file not found"):
        load_detector(str(tmp_path / "model"))


def test_cluster_features_without_word_vectors_are_a_clear_error(meddocan: Path, tmp_path: Path) -> None:
    write_brat(read_brat_dir(meddocan / "train" / "brat")[0], tmp_path / "train")
    with pytest.raises(ValueError, match="need word vectors"):
        train_model([tmp_path / "train"], tmp_path / "model", None, TrainOptions(features=FeatureConfig(clusters=True)))
