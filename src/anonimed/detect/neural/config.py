"""Hyper-parameters of the neural tagger and the presets that mirror the three MEDDOCAN seed systems."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal

CharEncoder = Literal["cnn", "lstm"]


@dataclass(frozen=True)
class NeuralConfig:
    """Everything that shapes the network and its training; stored in ``model.json`` so a model says how it was made.

    ``char_encoder`` is ``"cnn"`` (convolution + max-pool over a token's characters, as in Ma & Hovy 2016) or
    ``"lstm"`` (the last states of a character BiLSTM, as in Lample et al. 2016 and NeuroNER).  ``ema_decay`` > 0
    keeps an exponential moving average of the weights, which is what is evaluated and exported (as DiSMed did).
    ``char_lm`` names the folders of frozen character language models (``anonimed embed --char-lm``, one forward
    and/or one backward) whose states become token features, as Flair's contextual string embeddings.
    """

    char_encoder: CharEncoder = "cnn"
    char_dim: int = 25
    char_filters: int = 50  # CNN output size, or twice the hidden size of each char LSTM direction
    char_kernel: int = 3
    max_token_chars: int = 25  # longer tokens keep their first characters: identifiers, long numbers
    casing_dim: int = 8  # 0: no casing/shape feature
    word_hidden: int = 128  # per direction
    dropout: float = 0.5
    learning_rate: float = 2e-3
    batch_size: int = 32  # sentences
    max_epochs: int = 30
    patience: int = 6  # epochs without a better dev subtask-1 F1 before stopping
    max_minutes: float = 55.0  # training stops after the epoch that crosses this budget
    ema_decay: float = 0.0
    gradient_clip: float = 5.0
    # One thread: on a shared 2-core machine, two torch threads spin against the other jobs and ran 15x slower.
    threads: int = 1
    device: str = "cpu"  # where torch trains: "cpu", "cuda", "cuda:1"... (the model is exported from the CPU)
    char_lm: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.char_lm, str):
            raise ValueError(f"char_lm is a list of folders, got the string {self.char_lm!r}")
        object.__setattr__(self, "char_lm", tuple(str(folder) for folder in self.char_lm))  # JSON gives a list
        if len(self.char_lm) > 2:
            raise ValueError(f"char_lm takes a forward and/or a backward model, got {len(self.char_lm)} folders")
        if self.char_encoder not in ("cnn", "lstm"):
            raise ValueError(f"unknown char_encoder {self.char_encoder!r}: use 'cnn' or 'lstm'")
        if self.char_encoder == "lstm" and self.char_filters % 2:
            raise ValueError(f"char_filters must be even for the char BiLSTM, got {self.char_filters}")
        if self.max_epochs < 1 or self.batch_size < 1:
            raise ValueError(f"max_epochs and batch_size must be >= 1, got {self.max_epochs} and {self.batch_size}")
        if not 0.0 <= self.ema_decay < 1.0:
            raise ValueError(f"ema_decay must be in [0, 1), got {self.ema_decay}")

    def to_dict(self) -> dict[str, Any]:
        values = asdict(self)
        values["char_lm"] = list(self.char_lm)  # as JSON reads it back
        if not self.char_lm:
            del values["char_lm"]  # a model without char LMs keeps the model.json of the models trained before them
        if self.device == "cpu":
            del values["device"]  # likewise a model trained on the CPU
        return values

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> NeuralConfig:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"unknown neural config option(s): {', '.join(unknown)}")
        return cls(**values)

    def with_options(self, **changes: Any) -> NeuralConfig:
        return replace(self, **changes)


# NeuroNER (Dernoncourt et al.): char BiLSTM + word BiLSTM-CRF, no casing feature.
# NLNDE (Lange et al.): stacked Flair + fastText embeddings; here our embeddings, a char BiLSTM and a larger LSTM.
# DiSMed (Trienes et al.): BiLSTM-CRF with an exponential moving average of the weights.
PRESETS: dict[str, NeuralConfig] = {
    "default": NeuralConfig(),
    "neuroner": NeuralConfig(char_encoder="lstm", char_filters=50, casing_dim=0, word_hidden=100),
    "nlnde": NeuralConfig(char_encoder="lstm", char_filters=100, word_hidden=256),
    "dismed": NeuralConfig(ema_decay=0.999),
}


def preset(name: str) -> NeuralConfig:
    if name not in PRESETS:
        raise ValueError(f"unknown neural preset {name!r}; known presets: {', '.join(PRESETS)}")
    return PRESETS[name]
