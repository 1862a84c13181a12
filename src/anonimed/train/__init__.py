"""Training API: annotated BRAT folders in, a model folder (``model.json`` + the tagger's file) out.

One module a kind of training: :mod:`.tagger` (CRF or window, :func:`train_model`), :mod:`.neural` (BiLSTM-CRF,
:func:`train_neural_model`), :mod:`.ensemble` (the vote of trained members tuned on dev,
:func:`train_ensemble_model`; :func:`refit_ensemble_model`), and :mod:`.data` (the annotated notes they read).
Every name that ``anonimed.train`` offered when it was one module is still importable from here.

>>> info = train_model(["train/brat"], "models/crf", dev_dir="dev/brat", options=TrainOptions(seed=1))  # doctest: +SKIP
>>> info.dev_scores["subtask1"]["f1"]  # doctest: +SKIP
"""

from anonimed.train.data import find_gazetteers
from anonimed.train.ensemble import MIN_MENTIONS_FOR_OWN_THRESHOLD, refit_ensemble_model, train_ensemble_model
from anonimed.train.neural import train_neural_model
from anonimed.train.tagger import (
    DEFAULT_RESOLVER,
    MODEL_FILES,
    TrainOptions,
    score_on,
    train_model,
    training_documents,
)

__all__ = [
    "DEFAULT_RESOLVER",
    "MIN_MENTIONS_FOR_OWN_THRESHOLD",
    "MODEL_FILES",
    "TrainOptions",
    "find_gazetteers",
    "refit_ensemble_model",
    "score_on",
    "train_ensemble_model",
    "train_model",
    "train_neural_model",
    "training_documents",
]
