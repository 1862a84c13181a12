"""Token features on a fictitious note, and a tiny CRF trained on a few MEDDOCAN notes."""

from __future__ import annotations

from pathlib import Path

import pytest

from anonimed.detect.crf import CrfDetector, CrfSettings, model_attributes, train_crf
from anonimed.detect.features import FeatureConfig, FeatureExtractor
from anonimed.document import Document, Span
from anonimed.formats.brat import read_brat_dir
from anonimed.text.tokenize import tokenize

NOTE = "Datos del paciente.\nNombre: Ernesto.\nApellidos: Rivera Bueno.\nEdad: 70 años Sexo: H.\nRemitido por: Dra. Ana de la Fuente"


def features_of(word: str, config: FeatureConfig = FeatureConfig(hints=False)) -> list[str]:
    tokens = tokenize(NOTE)
    index = next(i for i, t in enumerate(tokens) if t.text == word)
    return FeatureExtractor(config).features(NOTE, tokens)[index]


def test_a_token_knows_its_word_shape_and_lexicons() -> None:
    features = features_of("Ernesto")
    assert {"w=ernesto", "sh=Xxx", "T", "GN", "s3=sto"} <= set(features)
    assert any(f.startswith("zf=") for f in features)
    assert "SN" in features_of("Rivera")


def test_a_token_knows_its_header_keys_and_place_in_the_line() -> None:
    assert {"k=nombre", "lk=nombre", "sc=0", "glued+", "ln=1"} <= set(features_of("Ernesto"))
    assert {"k=sexo", "lk=edad"} <= set(features_of("H"))
    assert {"BOL", "pk=nombre"} <= set(features_of("Apellidos"))


def test_neighbours_lend_their_features_with_an_offset() -> None:
    features = features_of("Rivera")
    assert {"-1:w=:", "-2:w=apellidos", "+1:w=bueno", "+2:w=."} <= set(features)
    assert "bi+=w=rivera|w=bueno" in features


def test_neighbour_features_in_a_fixed_order_and_padding_past_the_edges() -> None:
    """Models are trained on these lists: a token's own features, then its neighbours' offset by offset (each
    neighbour's hint after its word features), the bigrams last; a note shorter than the window is padded."""
    text = "Dr. Ana"
    hint = Span(4, 7, "NOMBRE_PERSONAL_SANITARIO", source="patterns")
    config = FeatureConfig(window=4, word_frequency=False, name_lists=False, layout=False)
    dr, dot, ana = FeatureExtractor(config).features(text, tokenize(text), [hint])
    pad = ["-4:PAD", "-3:PAD"]
    assert dr == ["bias", "w=dr", "sh=Xx", "T", "len=2", *pad, "-2:PAD", "-1:PAD", "+1:w=.", "+1:P"] + [
        "+2:w=ana", "+2:sh=Xxx", "+2:T", "+2:pt=S-NOMBRE_PERSONAL_SANITARIO", "+3:PAD", "+4:PAD", "bi+=w=dr|w=."
    ]  # fmt: skip
    assert dot == ["bias", "w=.", "P", *pad, "-2:PAD", "-1:w=dr", "-1:sh=Xx", "-1:T", "+1:w=ana", "+1:sh=Xxx"] + [
        "+1:T", "+1:pt=S-NOMBRE_PERSONAL_SANITARIO", "+2:PAD", "+3:PAD", "+4:PAD", "bi-=w=dr|w=.", "bi+=w=.|w=ana"
    ]  # fmt: skip
    assert ana == ["bias", "w=ana", "sh=Xxx", "T", "len=3", "pt=S-NOMBRE_PERSONAL_SANITARIO", *pad, "-2:w=dr"] + [
        "-2:sh=Xx", "-2:T", "-1:w=.", "-1:P", "+1:PAD", "+2:PAD", "+3:PAD", "+4:PAD", "bi-=w=.|w=ana"
    ]  # fmt: skip


def test_capitalised_runs_bridge_name_connectors() -> None:
    assert {"cr=B", "crl=4"} <= set(features_of("Ana"))
    assert {"cr=E", "crl=4"} <= set(features_of("Fuente"))


def test_hints_become_bioes_position_features() -> None:
    from anonimed.document import Span

    tokens = tokenize(NOTE)
    start = NOTE.index("Rivera Bueno")
    hint = Span(start, start + len("Rivera Bueno"), "NOMBRE_SUJETO_ASISTENCIA", source="patterns")
    features = FeatureExtractor(FeatureConfig()).features(NOTE, tokens, [hint])
    rivera = next(i for i, t in enumerate(tokens) if t.text == "Rivera")
    assert "pt=B-NOMBRE_SUJETO_ASISTENCIA" in features[rivera]
    assert "+1:pt=E-NOMBRE_SUJETO_ASISTENCIA" in features[rivera]


def test_feature_config_round_trips_and_rejects_unknown_settings() -> None:
    config = FeatureConfig(window=1, word_frequency=False)
    assert FeatureConfig.from_dict(config.to_dict()) == config
    with pytest.raises(ValueError, match="unknown feature settings"):
        FeatureConfig.from_dict({"colour": True})


def test_a_tiny_crf_learns_and_predicts_spans_with_valid_offsets(meddocan: Path, tmp_path: Path) -> None:
    documents = read_brat_dir(meddocan / "train" / "brat")[:12]
    extractor = FeatureExtractor(FeatureConfig(hints=False, word_frequency=False))
    train_crf(documents[:10], tmp_path / "tiny.crfsuite", extractor, CrfSettings(max_iterations=30))
    detector = CrfDetector(tmp_path / "tiny.crfsuite", extractor, "BIO")
    for document in documents[10:]:
        spans = detector.detect(Document(document.id, document.text))
        assert spans, "a CRF trained on ten notes finds something in the next ones"
        for span in spans:
            assert 0 <= span.start < span.end <= len(document.text)
            assert document.text[span.start : span.end].strip() == document.text[span.start : span.end]
            assert 0.0 <= span.score <= 1.0 and span.source == "crf"


def _tiny_model(path: Path, extractor: FeatureExtractor) -> Path:
    """A CRF trained in a moment on two invented notes."""
    notes = [
        Document(
            "a",
            "Paciente: Ana Pérez Gil, 34 años.\nMédico: Dr. Luis Romero.",
            [Span(10, 23, "NOMBRE_SUJETO_ASISTENCIA")],
        ),
        Document("b", "Paciente: Juan Soto.\nSe remite al Dr. Romero.", [Span(10, 19, "NOMBRE_SUJETO_ASISTENCIA")]),
    ]
    train_crf(notes, path, extractor, CrfSettings(max_iterations=10))
    return path


def test_the_attributes_of_a_model_file_are_those_crfsuite_reads(tmp_path: Path) -> None:
    import pycrfsuite

    model = _tiny_model(tmp_path / "tiny.crfsuite", FeatureExtractor(FeatureConfig(hints=False, word_frequency=False)))
    tagger = pycrfsuite.Tagger()
    tagger.open(str(model))
    assert model_attributes(model) == frozenset(tagger.info().attributes)
    with pytest.raises(ValueError, match="not a crfsuite model"):
        model_attributes(Path(__file__))


def test_a_tagger_reads_only_the_features_it_has_weights_for_and_tags_as_with_all(tmp_path: Path) -> None:
    import pycrfsuite

    extractor = FeatureExtractor(FeatureConfig(hints=False, word_frequency=False))
    model = _tiny_model(tmp_path / "tiny.crfsuite", extractor)
    text = "Paciente: Marta Soto Gil.\nLe atiende el Dr. Romero en Huesca."
    tokens = tokenize(text)
    everything = extractor.features(text, tokens)
    known = model_attributes(model)
    restricted = extractor.restricted_to(known).features(text, tokens)
    # What the model knows is all there, in the same order (crfsuite adds the weights up in that order).
    assert [[f for f in token if f in known] for token in restricted] == [
        [f for f in token if f in known] for token in everything
    ]
    assert sum(map(len, restricted)) < sum(map(len, everything)), "unknown words and word pairs are left out"
    tagger = pycrfsuite.Tagger()
    tagger.open(str(model))
    tagger.set(everything)
    expected = tagger.tag()
    detector = CrfDetector(model, extractor, "BIO")
    assert detector.tag(restricted) == detector.tag(everything)
    assert detector.tag(restricted)[0] == expected
