"""Character language models: training with checkpoints that resume, held-out perplexity, and the ONNX states that
inference reads matching torch's."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch (the training extra) is needed to train a character LM")
pytest.importorskip("onnxruntime")

from anonimed.detect.neural.charlm import (
    CharLanguageModel,
    CharLmConfig,
    load_weights,
    save_weights,
    train_char_lm,
)
from anonimed.detect.neural.charlm_states import CharLmStates
from anonimed.text.tokenize import tokenize

NOTES = [
    f"Paciente de {age} años que acude a urgencias por dolor torácico. Vive con su hija en Lleida.\n"
    f"Antecedentes: hipertensión arterial, diabetes mellitus tipo 2. Refiere disnea de {age % 7 + 1} días.\n"
    for age in range(20, 80)
]


def write_corpus(folder: Path) -> Path:
    folder.mkdir()
    for number, note in enumerate(NOTES):
        (folder / f"n{number:03d}.txt").write_text(note, encoding="utf-8")
    return folder


def small_config(direction: str = "forward", steps: int = 30) -> CharLmConfig:
    return CharLmConfig(
        direction=direction, hidden=16, embedding_dim=8, window=20, streams=4, min_char_count=1,
        heldout_share=0.1, max_steps=steps, checkpoint_minutes=60.0, learning_rate=1e-2,
    )  # fmt: skip


def test_training_lowers_perplexity_and_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    out = tmp_path / "lm"
    first = train_char_lm([corpus], out, small_config(steps=40))
    assert first["history"][-1]["step"] == 40
    assert first["history"][-1]["perplexity"] < len(first["chars"]) + 2  # better than guessing uniformly
    second = train_char_lm([corpus], out, small_config(steps=80))  # the same folder: resumes at step 40
    assert [point["step"] for point in second["history"]] == [40, 80]
    assert second["history"][-1]["perplexity"] < first["history"][-1]["perplexity"]
    assert json.loads((out / "charlm.json").read_text(encoding="utf-8"))["chars"] == first["chars"]


def test_a_folder_refuses_the_other_direction(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    train_char_lm([corpus], tmp_path / "lm", small_config(steps=2))
    with pytest.raises(ValueError, match="forward model"):
        train_char_lm([corpus], tmp_path / "lm", small_config("backward", steps=4))


@pytest.mark.parametrize("direction", ["forward", "backward"])
def test_onnx_states_match_torch_at_the_word_boundaries(tmp_path: Path, direction: str) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    out = tmp_path / direction
    manifest = train_char_lm([corpus], out, small_config(direction, steps=5))
    text = "Vive con su hija Anna en Lleida."
    tokens = tokenize(text)
    features = CharLmStates(out).word_features(text, tokens)
    assert features.shape == (len(tokens), 16)
    # The same states from the torch checkpoint.
    model = CharLanguageModel(len(manifest["chars"]), small_config(direction))
    model.load_state_dict(torch.load(out / "checkpoint.pt", weights_only=False)["model"])
    model.eval()
    ids = {char: index + 2 for index, char in enumerate(manifest["chars"])}
    oriented = text if direction == "forward" else text[::-1]
    with torch.no_grad():
        states = model.states(torch.tensor([[ids.get(c, 1) for c in oriented]]))[0][0].numpy()
    positions = [t.end - 1 for t in tokens] if direction == "forward" else [len(text) - 1 - t.start for t in tokens]
    np.testing.assert_allclose(features, states[positions], atol=1e-5)


def test_weights_move_between_machines_as_one_file_and_training_resumes_from_them(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    trained = train_char_lm([corpus], tmp_path / "lm", small_config(steps=20))
    save_weights(tmp_path / "lm", tmp_path / "lm.pt")
    moved = load_weights(tmp_path / "lm.pt", tmp_path / "moved")
    assert moved == trained
    text = "Vive con su hija Anna en Lleida."
    original = CharLmStates(tmp_path / "lm").word_features(text, tokenize(text))
    # Half-precision weights: the states agree to about three significant digits.
    np.testing.assert_allclose(
        CharLmStates(tmp_path / "moved").word_features(text, tokenize(text)), original, atol=5e-3
    )
    with pytest.raises(FileExistsError, match="already holds"):
        load_weights(tmp_path / "lm.pt", tmp_path / "moved")
    resumed = train_char_lm([corpus], tmp_path / "moved", small_config(steps=30))  # a fresh Adam, same position
    assert [point["step"] for point in resumed["history"]] == [20, 30]


def test_dropout_changes_training_only(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    config = replace(small_config(steps=5), dropout=0.3)
    manifest = train_char_lm([corpus], tmp_path / "lm", config)
    assert manifest["config"]["dropout"] == 0.3
    model = CharLanguageModel(len(manifest["chars"]), config)
    model.eval()
    ids = torch.tensor([[2, 3, 4, 5]])
    with torch.no_grad():
        assert torch.equal(model(ids)[0], model(ids)[0])  # no dropout at evaluation
    with pytest.raises(ValueError, match="dropout"):
        CharLmConfig(dropout=1.0)
