"""The BiLSTM-CRF reading character language model features: ONNX against torch, padding, a self-contained model
folder, the CLI and its errors, and the model.json of a model without them unchanged.

Fast and self-contained: two tiny character LMs trained a few steps and invented BRAT notes in the test's tmp dir.
"""

from __future__ import annotations

import json
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch (the training extra) trains the networks")
pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")

from anonimed.cli import main
from anonimed.detect.neural import NeuralConfig, load_neural
from anonimed.detect.neural.charlm import CharLmConfig, train_char_lm
from anonimed.detect.neural.encoding import CharLmFeatures, TokenEncoder, document_sentences, length_batches
from anonimed.detect.neural.inference import CHAR_LM_FOLDERS
from anonimed.detect.neural.network import Crf, Tagger
from anonimed.detect.neural.tagset import allowed_moves, bioes_tags
from anonimed.detect.neural.training import (
    char_lm_files,
    export_onnx,
    predict_with_torch,
    torch_emissions,
    write_model,
)
from anonimed.document import Document, Span
from anonimed.embeddings import WordEmbeddings

HIDDEN = 8  # each character LM's state size
TAGS = bioes_tags(["NOMBRE_SUJETO_ASISTENCIA", "FECHAS"])
TINY = NeuralConfig(char_dim=6, char_filters=8, casing_dim=4, word_hidden=8, batch_size=4, max_epochs=1, patience=1)
NAMES = ["Lucía Ferrán Oset", "Tomás Ibarra", "Nerea Soler Vidal", "Ramón Quintela", "Ada Pujol"]
DATES = ["12/03/2015", "3 de mayo de 2019", "27.11.2008", "enero de 2001"]
# The keys of a model.json, and of its config, before character LMs existed.
MANIFEST_KEYS = {
    "config", "seed", "date", "training_data", "best_epoch", "epochs", "training_seconds", "kind", "tags", "chars",
    "dev_scores",
}  # fmt: skip
CONFIG_KEYS = {
    "char_encoder", "char_dim", "char_filters", "char_kernel", "max_token_chars", "casing_dim", "word_hidden",
    "dropout", "learning_rate", "batch_size", "max_epochs", "patience", "max_minutes", "ema_decay", "gradient_clip",
    "threads",
}  # fmt: skip


def invented_note(number: int) -> Document:
    name, date = NAMES[number % len(NAMES)], DATES[number % len(DATES)]
    pieces = [
        ("Paciente: ", None),
        (name, "NOMBRE_SUJETO_ASISTENCIA"),
        (".\nIngresa el ", None),
        (date, "FECHAS"),
        (" por dolor torácico de dos días. Vive con su hija.\nAlta sin incidencias.\n", None),
    ]
    text, spans = "", []
    for piece, label in pieces:
        if label:
            spans.append(Span(len(text), len(text) + len(piece), label))
        text += piece
    return Document(f"note-{number}", text, spans)


def write_brat(folder: Path, notes: list[Document]) -> Path:
    folder.mkdir(parents=True)
    for note in notes:
        (folder / f"{note.id}.txt").write_text(note.text, encoding="utf-8")
        lines = [f"T{i}\t{s.label} {s.start} {s.end}\t{note.text[s.start : s.end]}" for i, s in enumerate(note.spans)]
        (folder / f"{note.id}.ann").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def random_embeddings() -> WordEmbeddings:
    rng = np.random.default_rng(7)
    words = ["paciente", "ingresa", "el", "de", "por", "alta", "sin", "dolor", "mayo", "enero", "0000"]
    return WordEmbeddings(
        words, rng.normal(size=(len(words), 12)).astype(np.float16), rng.normal(size=(64, 12)).astype(np.float16), 3, 5
    )


@pytest.fixture(scope="module")
def char_lms(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A forward and a backward character LM, trained a few steps on invented notes."""
    root = tmp_path_factory.mktemp("charlm")
    corpus = write_brat(root / "corpus", [invented_note(n) for n in range(20)])
    folders = {}
    for direction in ("forward", "backward"):
        config = CharLmConfig(
            direction=direction, hidden=HIDDEN, embedding_dim=4, window=20, streams=4, min_char_count=1,
            heldout_share=0.1, max_steps=3, checkpoint_minutes=60.0,
        )  # fmt: skip
        train_char_lm([corpus], root / direction, config)
        folders[direction] = root / direction
    return folders


@pytest.fixture(scope="module")
def random_model(char_lms: dict[str, Path], tmp_path_factory: pytest.TempPathFactory):
    """An untrained network reading both LMs, with sharpened emissions (so that many tags occur), written to a folder."""
    torch.manual_seed(5)
    notes = [invented_note(n) for n in range(6)]
    features = CharLmFeatures([char_lms["backward"], char_lms["forward"]], cached_notes=None)
    encoder = TokenEncoder(random_embeddings(), sorted(set("".join(n.text for n in notes))), 25, features)
    tagger = Tagger(TINY, len(encoder.chars), encoder.embeddings.dim, len(TAGS), features.dim)
    with torch.no_grad():
        tagger.emissions.weight.mul_(20.0)
    crf = Crf(*allowed_moves(TAGS))
    folder = tmp_path_factory.mktemp("neural-charlm")
    example = encoder.encode_note(notes[0].text, document_sentences(notes[0])).batch([0])
    with pytest.raises(ValueError, match="give their files"):
        write_model(folder, tagger.eval(), crf, encoder, TAGS, example, {"config": TINY.to_dict()})
    copies = char_lm_files(features)
    write_model(folder, tagger, crf, encoder, TAGS, example, {"config": TINY.to_dict()}, copies)
    return folder, tagger, crf, encoder, notes


def test_features_are_forward_then_backward_whatever_the_order_given(char_lms):
    features = CharLmFeatures([char_lms["backward"], char_lms["forward"]], cached_notes=None)
    assert [model.direction for model in features.models] == ["forward", "backward"]
    assert features.dim == 2 * HIDDEN
    note = invented_note(1)
    rows = features.of_note(note.text)
    assert rows.shape == (sum(map(len, document_sentences(note))), 2 * HIDDEN) and rows.dtype == np.float16
    assert features.of_note(note.text) is rows  # computed once per note


def test_onnx_emissions_and_spans_equal_torch(random_model):
    folder, tagger, crf, encoder, notes = random_model
    detector = load_neural(folder)
    total = 0
    for note in notes:
        sentences = document_sentences(note)
        whole = detector.encoder.encode_note(note.text, sentences).batch(np.arange(len(sentences)))
        cut = detector.encoder.encode_note(note.text, sentences, detector.char_features)
        batch = cut.batch(np.arange(len(sentences)))
        # Real positions only: at a padded one, the cut network reads zeros where the whole one encodes no characters.
        real = np.arange(batch.word_vectors.shape[1])[None, :] < batch.lengths[:, None]
        np.testing.assert_allclose(detector.emissions(batch)[real], torch_emissions(tagger)(whole)[real], atol=1e-4)
        spans, from_torch = detector.detect(note), predict_with_torch(tagger, crf, encoder, TAGS, [note])[note.id]
        assert [s.key for s in spans] == [s.key for s in from_torch]
        total += len(spans)
    assert total > 0, "the sharpened random model should tag something"


def test_reading_around_spans_gives_the_whole_note_s_spans_in_those_sentences(random_model):
    # The character LMs read the whole note; the network only the sentences kept: their rows must be those sentences'.
    folder, *_ = random_model
    detector = load_neural(folder)
    compared = 0
    for note in random_model[-1]:
        sentences = document_sentences(note)
        around = [Span(sentence[0].start, sentence[-1].end, "FECHAS") for sentence in sentences[1::2]]
        expected = [s for s in detector.detect(note) if any(a.start <= s.start and s.end <= a.end for a in around)]
        assert detector.detect_around(note, around) == expected
        compared += len(expected)
    assert compared > 0, "the sharpened random model should tag something in the kept sentences"


def test_a_folder_written_before_the_network_was_cut_is_refused_then_cut_by_the_script(random_model, tmp_path, capsys):
    folder, tagger, _, encoder, notes = random_model
    old = tmp_path / "old"
    shutil.copytree(folder, old)
    example = encoder.encode_note(notes[0].text, document_sentences(notes[0])).batch([0])
    (old / "tagger.onnx").write_bytes(export_onnx(tagger, example))  # the whole network, as folders held it
    (old / "char_encoder.onnx").unlink()
    with pytest.raises(ValueError, match=r"split_neural_onnx\.py"):
        load_neural(old)
    split = runpy.run_path(str(Path(__file__).resolve().parents[1] / "scripts" / "split_neural_onnx.py"))["main"]
    assert split([str(old)]) == 0 and split([str(old)]) == 0
    assert "cut already" in capsys.readouterr().out
    for note in notes:
        assert [s.key for s in load_neural(old).detect(note)] == [s.key for s in load_neural(folder).detect(note)]


def test_padding_and_batching_never_change_a_sentence(random_model):
    _, tagger, _, encoder, notes = random_model
    note = notes[1]
    sentences = document_sentences(note)
    encoded = encoder.encode_note(note.text, sentences)
    short, long = int(np.argmin([len(s) for s in sentences])), int(np.argmax([len(s) for s in sentences]))
    alone = torch_emissions(tagger)(encoded.batch([short]))[0]
    together = encoded.batch([long, short])
    assert not together.char_lm[1, len(sentences[short]) :].any()  # padded positions read zeros
    padded = torch_emissions(tagger)(together)[1, : len(sentences[short])]
    np.testing.assert_allclose(padded, alone, atol=1e-5)
    # Cut from the note or built sentence by sentence from the same rows: the same arrays.
    offsets = np.cumsum([0, *map(len, sentences)])
    for indices in length_batches([len(s) for s in sentences], 2):
        rows = [encoded.char_lm[offsets[i] : offsets[i + 1]] for i in indices]
        alone_batch = encoder.batch([sentences[i] for i in indices], rows)
        for name, array in alone_batch.inputs().items():
            np.testing.assert_array_equal(encoded.batch(indices).inputs()[name], array, err_msg=name)


def test_an_encoder_with_char_lms_needs_the_sentence_features(random_model):
    _, _, _, encoder, notes = random_model
    with pytest.raises(ValueError, match="character LM features"):
        encoder.batch(document_sentences(notes[0]))


def test_cli_trains_a_self_contained_model_that_loads_elsewhere_without_torch(char_lms, tmp_path):
    sources = {direction: tmp_path / f"lm-{direction}" for direction in char_lms}
    for direction, folder in char_lms.items():
        shutil.copytree(folder, sources[direction])
    train = write_brat(tmp_path / "train", [invented_note(n) for n in range(4)])
    dev = write_brat(tmp_path / "dev", [invented_note(n) for n in range(4, 6)])
    random_embeddings().save(tmp_path / "vectors.npz")
    out = tmp_path / "model"
    command = [
        "train", "--model", "neural", "--train", str(train), "--dev", str(dev), "--embeddings",
        str(tmp_path / "vectors.npz"), "--out", str(out), "--preset", "default", "--seed", "3",
        "--options", json.dumps(TINY.to_dict()), "--char-lm", str(sources["backward"]), str(sources["forward"]),
    ]  # fmt: skip
    assert main(command) == 0
    manifest = json.loads((out / "model.json").read_text(encoding="utf-8"))
    assert manifest[CHAR_LM_FOLDERS] == ["charlm-forward", "charlm-backward"]
    assert manifest["config"]["char_lm"] == [str(sources["backward"]), str(sources["forward"])]  # as given
    assert sorted(p.name for p in (out / "charlm-backward").iterdir()) == ["charlm.json", "charlm.onnx"]
    note = invented_note(7)
    expected = load_neural(out).detect(note)
    moved = tmp_path / "elsewhere" / "model"
    shutil.move(str(out), moved)
    for folder in sources.values():  # the model reads its own copies
        shutil.rmtree(folder)
    script = (
        "import sys; from anonimed.detect.neural import load_neural; from anonimed.document import Document; "
        f"spans = load_neural({str(moved)!r}).detect(Document('x', {note.text!r})); "
        "assert 'torch' not in sys.modules, 'torch was imported'; print([s.key for s in spans])"
    )
    printed = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True).stdout
    assert printed.strip() == str([s.key for s in expected])


def test_without_char_lms_model_json_keeps_its_keys(tmp_path):
    from anonimed.detect.neural import train_neural

    notes = [invented_note(n) for n in range(6)]
    train_neural(notes[:4], notes[4:], tmp_path / "model", TINY, seed=3, embeddings=random_embeddings())
    manifest = json.loads((tmp_path / "model" / "model.json").read_text(encoding="utf-8"))
    assert set(manifest) == MANIFEST_KEYS and set(manifest["config"]) == CONFIG_KEYS
    assert NeuralConfig.from_dict(manifest["config"]) == TINY
    assert sorted(p.name for p in (tmp_path / "model").iterdir()) == [
        "boundaries.npy", "char_encoder.onnx", "embeddings.npz", "model.json", "tagger.onnx", "transitions.npy",
    ]  # fmt: skip


def test_bad_char_lm_folders_are_refused_clearly(char_lms, tmp_path, capsys):
    with pytest.raises(FileNotFoundError, match="not a character language model folder"):
        CharLmFeatures([tmp_path], cached_notes=0)
    with pytest.raises(ValueError, match="two forward character language models"):
        CharLmFeatures([char_lms["forward"], char_lms["forward"]], cached_notes=0)
    with pytest.raises(ValueError, match="a forward and/or a backward model, got 3"):
        NeuralConfig(char_lm=(str(tmp_path),) * 3)
    with pytest.raises(ValueError, match="list of folders"):
        NeuralConfig.from_dict({"char_lm": str(tmp_path)})
    # The CLI says so before it reads any note (the --train folder does not even exist).
    random_embeddings().save(tmp_path / "vectors.npz")
    command = [
        "train", "--model", "neural", "--train", str(tmp_path / "absent"), "--dev", str(tmp_path / "absent"),
        "--embeddings", str(tmp_path / "vectors.npz"), "--out", str(tmp_path / "model"), "--char-lm", str(tmp_path),
    ]  # fmt: skip
    assert main(command) == 2
    assert "not a character language model folder" in capsys.readouterr().err
