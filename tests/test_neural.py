"""The neural tagger: CRF algorithms against brute force, numpy decoding against torch, ONNX against torch.

Fast and self-contained: fictitious notes and random word vectors, tiny networks.  Skips without torch/onnxruntime.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")

from anonimed.detect.base import Detector
from anonimed.detect.neural import NeuralConfig, load_neural, preset, train_neural
from anonimed.detect.neural.encoding import NoteEncoding, TokenEncoder, document_sentences, length_batches
from anonimed.detect.neural.network import Crf, Tagger
from anonimed.detect.neural.tagset import allowed_moves, bioes_tags
from anonimed.detect.neural.training import crf_weights, predict_with_torch, torch_emissions, write_model
from anonimed.document import Document, Span
from anonimed.embeddings import WordEmbeddings
from anonimed.text.tagging import tags_to_token_ranges

TAGS = bioes_tags(["NOMBRE", "FECHAS"])
TINY = NeuralConfig(char_dim=6, char_filters=8, casing_dim=4, word_hidden=8, batch_size=4, max_epochs=2, patience=2)


def random_crf(seed: int) -> Crf:
    torch.manual_seed(seed)
    crf = Crf(*allowed_moves(TAGS))
    with torch.no_grad():
        for parameter in crf.parameters():
            parameter.normal_(0.0, 1.0)
    return crf


def brute_force_paths(crf: Crf, emissions: torch.Tensor, length: int) -> list[tuple[float, tuple[int, ...]]]:
    transitions, start, end = (t.detach().double() for t in crf.scores())
    scored = []
    for path in itertools.product(range(len(TAGS)), repeat=length):
        total = start[path[0]] + end[path[-1]] + sum(emissions[t, path[t]].double() for t in range(length))
        total += sum(transitions[a, b] for a, b in itertools.pairwise(path))
        scored.append((float(total), path))
    return scored


def test_bioes_moves_forbid_what_bioes_forbids():
    moves, first, last = allowed_moves(TAGS)
    index = {tag: i for i, tag in enumerate(TAGS)}
    assert moves[index["B-NOMBRE"], index["E-NOMBRE"]] and moves[index["O"], index["S-FECHAS"]]
    assert not moves[index["O"], index["I-NOMBRE"]] and not moves[index["B-NOMBRE"], index["E-FECHAS"]]
    assert not moves[index["B-NOMBRE"], index["O"]] and moves[index["E-NOMBRE"], index["B-FECHAS"]]
    assert first[index["B-FECHAS"]] and not first[index["E-FECHAS"]] and not last[index["I-NOMBRE"]]


def test_crf_forward_algorithm_equals_brute_force():
    crf = random_crf(0)
    emissions = torch.randn(2, 3, len(TAGS))
    mask = torch.tensor([[True, True, True], [True, True, False]])
    log_partition = crf.log_partition(emissions, mask)
    for row, length in enumerate((3, 2)):
        scores = np.array([s for s, _ in brute_force_paths(crf, emissions[row], length)])
        expected = np.log(np.exp(scores - scores.max()).sum()) + scores.max()
        assert log_partition[row].item() == pytest.approx(expected, rel=1e-5)


def test_numpy_marginals_equal_brute_force():
    crf = random_crf(1)
    emissions = torch.randn(1, 3, len(TAGS))
    paths = brute_force_paths(crf, emissions[0], 3)
    weights = np.array([np.exp(s) for s, _ in paths])
    expected = np.zeros((3, len(TAGS)))
    for weight, (_, path) in zip(weights / weights.sum(), paths):
        expected[np.arange(3), path] += weight
    marginals = crf_weights(crf).marginals(emissions.double().numpy(), np.array([3]))[0]
    np.testing.assert_allclose(marginals, expected, atol=1e-6)


def test_viterbi_numpy_equals_torch_and_brute_force():
    crf = random_crf(2)
    emissions = torch.randn(5, 6, len(TAGS)) * 3
    lengths = np.array([6, 1, 4, 3, 6])
    mask = torch.from_numpy(np.arange(6)[None, :] < lengths[:, None])
    from_torch = crf.viterbi(emissions, mask).numpy()
    from_numpy = crf_weights(crf).viterbi(emissions.double().numpy(), lengths)
    np.testing.assert_array_equal(from_numpy, from_torch)
    best = max(brute_force_paths(crf, emissions[3], 3))[1]
    assert tuple(from_numpy[3, :3]) == best
    assert all(tags_to_token_ranges([TAGS[i] for i in row[:n]]) is not None for row, n in zip(from_numpy, lengths))


def test_decoding_sentences_together_equals_decoding_each_alone():
    """Viterbi and the marginals decode a batch position by position for the sentences that reach it (longest
    first): any order of lengths gives each sentence what it gets alone, padding past its length ignored."""
    weights = crf_weights(random_crf(5))
    lengths = np.array([2, 7, 1, 7, 4, 1])
    emissions = np.random.default_rng(3).normal(scale=3.0, size=(len(lengths), 9, len(TAGS))).astype(np.float32)
    paths = weights.viterbi(emissions, lengths)
    marginals = weights.marginals(emissions.astype(np.float64), lengths)
    for row, length in enumerate(lengths):
        alone = emissions[row : row + 1, :length]
        np.testing.assert_array_equal(paths[row, :length], weights.viterbi(alone, lengths[row : row + 1])[0])
        assert not paths[row, length:].any()
        expected = weights.marginals(alone.astype(np.float64), lengths[row : row + 1])[0]
        np.testing.assert_allclose(marginals[row, :length], expected, rtol=0, atol=1e-12)
        np.testing.assert_allclose(marginals[row, :length].sum(axis=1), 1.0, atol=1e-9)


def test_training_loss_is_the_negative_log_likelihood():
    crf = random_crf(3)
    emissions = torch.randn(1, 3, len(TAGS))
    gold = torch.tensor([[1, 3, 0]])  # B-FECHAS E-FECHAS O
    paths = dict((path, s) for s, path in brute_force_paths(crf, emissions[0], 3))
    log_partition = crf.log_partition(emissions, torch.ones(1, 3, dtype=torch.bool)).item()
    loss = crf.negative_log_likelihood(emissions, gold, torch.ones(1, 3, dtype=torch.bool)).item()
    assert loss == pytest.approx(log_partition - paths[(1, 3, 0)], rel=1e-5)


# --- fictitious notes -------------------------------------------------------------------------------------------

NAMES = ["Lucía Ferrán Oset", "Tomás Ibarra", "Nerea Soler Vidal", "Ramón Quintela", "Ada Pujol"]
DATES = ["12/03/2015", "3 de mayo de 2019", "27.11.2008", "enero de 2001"]


def fictitious_note(number: int) -> Document:
    name, date = NAMES[number % len(NAMES)], DATES[number % len(DATES)]
    pieces = [
        ("Paciente: ", None),
        (name, "NOMBRE"),
        (".\nIngresa el ", None),
        (date, "FECHAS"),
        (" por dolor torácico de dos días.\nAlta sin incidencias.\n", None),
    ]
    text, spans = "", []
    for piece, label in pieces:
        if label:
            spans.append(Span(len(text), len(text) + len(piece), label))
        text += piece
    return Document(f"note-{number}", text, spans)


def random_embeddings() -> WordEmbeddings:
    rng = np.random.default_rng(7)
    words = ["paciente", "ingresa", "el", "de", "por", "alta", "sin", "dolor", "mayo", "enero", "0000"]
    return WordEmbeddings(
        words, rng.normal(size=(len(words), 12)).astype(np.float16), rng.normal(size=(64, 12)).astype(np.float16), 3, 5
    )


@pytest.fixture(scope="module", params=["cnn", "lstm"])
def random_model(request, tmp_path_factory):
    """An untrained network with sharpened emissions (so that many tags occur), written as a model folder."""
    torch.manual_seed(5)
    config = TINY.with_options(char_encoder=request.param)
    notes = [fictitious_note(n) for n in range(6)]
    encoder = TokenEncoder(random_embeddings(), sorted(set("".join(n.text for n in notes))), 25)
    tagger = Tagger(config, len(encoder.chars), encoder.embeddings.dim, len(TAGS))
    with torch.no_grad():
        tagger.emissions.weight.mul_(20.0)
    crf = random_crf(4)
    folder = tmp_path_factory.mktemp("neural-random")
    example = encoder.batch(document_sentences(notes[0])[:1])
    write_model(folder, tagger.eval(), crf, encoder, TAGS, example, {"config": config.to_dict()})
    return folder, tagger, crf, encoder, notes


def test_padding_never_changes_a_sentence(random_model):
    _, tagger, _, encoder, notes = random_model
    sentences = document_sentences(notes[1])
    short = min(sentences, key=len)
    alone = torch_emissions(tagger)(encoder.batch([short]))[0]
    padded = torch_emissions(tagger)(encoder.batch([max(sentences, key=len), short]))[1, : len(short)]
    np.testing.assert_allclose(padded, alone, atol=1e-5)


def test_a_note_encoded_once_gives_the_batches_of_its_sentences(random_model):
    _, _, _, encoder, notes = random_model
    for note in notes:
        sentences = document_sentences(note)
        encoded = NoteEncoding(encoder, sentences)
        for indices in length_batches([len(s) for s in sentences], 3):
            cut, alone = encoded.batch(indices), encoder.batch([sentences[i] for i in indices])
            for name, array in alone.inputs().items():
                np.testing.assert_array_equal(cut.inputs()[name], array, err_msg=name)
                assert cut.inputs()[name].dtype == array.dtype


def test_char_ids_are_looked_up_one_character_at_a_time(random_model):
    """Characters outside the model's alphabet (an emoji beyond the 16-bit range, a lone surrogate) get UNKNOWN."""
    from anonimed.detect.neural.encoding import PAD, UNKNOWN

    encoder = random_model[3]
    texts = ["Pérez", "😀a", "\udcff", "x" * (encoder.max_token_chars + 5)]
    known = {char: index + 2 for index, char in enumerate(encoder.chars)}
    matrix = encoder.char_matrix(texts)
    for row, text in zip(matrix, texts):
        cut = text[: encoder.max_token_chars]
        assert row[: len(cut)].tolist() == [known.get(char, UNKNOWN) for char in cut]
        assert (row[len(cut) :] == PAD).all()


def test_onnx_detector_equals_torch_to_the_last_label(random_model):
    folder, tagger, crf, encoder, notes = random_model
    detector = load_neural(folder)
    assert isinstance(detector, Detector) and detector.name == "neural"
    from_torch = predict_with_torch(tagger, crf, encoder, TAGS, notes)
    total = 0
    for note in notes:
        spans = detector.detect(note)
        assert [s.key for s in spans] == [s.key for s in from_torch[note.id]]
        np.testing.assert_allclose([s.score for s in spans], [s.score for s in from_torch[note.id]], atol=1e-4)
        total += len(spans)
    assert total > 0, "the sharpened random model should tag something"


def test_spans_have_valid_offsets_and_scores(random_model):
    folder, *_, notes = random_model
    detector = load_neural(folder)
    for note in notes:
        for span in detector.detect(note):
            assert 0 <= span.start < span.end <= len(note.text)
            assert note.text[span.start : span.end] == note.text[span.start : span.end].strip()
            assert 0.0 <= span.score <= 1.0 + 1e-9 and span.source == "neural"
    assert detector.detect(Document("empty", " \n ")) == []


def test_inference_does_not_import_torch(random_model):
    folder = random_model[0]
    script = (
        "import sys; from anonimed.detect.neural import load_neural; from anonimed.document import Document; "
        f"load_neural({str(folder)!r}).detect(Document('x', 'Paciente: Ada Pujol.')); "
        "assert 'torch' not in sys.modules, 'torch was imported'"
    )
    subprocess.run([sys.executable, "-c", script], check=True)


def test_train_neural_writes_a_model_folder(tmp_path):
    notes = [fictitious_note(n) for n in range(12)]
    config = TINY.with_options(ema_decay=0.9)  # the DiSMed-like averaged weights are what gets exported
    result = train_neural(notes[:8], notes[8:], tmp_path / "model", config, seed=3, embeddings=random_embeddings())
    manifest = json.loads((tmp_path / "model" / "model.json").read_text(encoding="utf-8"))
    assert manifest["kind"] == "neural" and manifest["config"] == config.to_dict()
    assert manifest["dev_scores"]["subtask1"] == result["dev_scores"]["subtask1"]
    assert len(result["epochs"]) == 2 and manifest["training_data"]["train_documents"] == 8
    assert {p.name for p in (tmp_path / "model").iterdir()} == {
        "model.json",
        "char_encoder.onnx",
        "tagger.onnx",
        "transitions.npy",
        "boundaries.npy",
        "embeddings.npz",
    }


def test_a_training_device_is_checked_before_any_work(tmp_path):
    notes = [fictitious_note(n) for n in range(4)]
    with pytest.raises(ValueError, match="unknown training device 'gpu'"):
        train_neural(notes, notes, tmp_path / "m", TINY.with_options(device="gpu"), embeddings=random_embeddings())
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="sees no CUDA GPU"):
            train_neural(notes, notes, tmp_path / "m", TINY.with_options(device="cuda"), embeddings=random_embeddings())
    assert not (tmp_path / "m").exists()


def test_presets_and_config_round_trip():
    assert preset("neuroner").char_encoder == "lstm" and preset("dismed").ema_decay > 0
    assert NeuralConfig.from_dict(preset("nlnde").to_dict()) == preset("nlnde")
    with pytest.raises(ValueError, match="unknown neural preset"):
        preset("flair")
    with pytest.raises(ValueError, match="unknown neural config option"):
        NeuralConfig.from_dict({"hidden": 3})
