"""De-identification: one note through the Python API (:mod:`.api`) or batches of files (:mod:`.batch`).

>>> from anonimed.deidentify import Deidentifier
>>> result = Deidentifier(seed=1).deidentify("Paciente: Ernesto Rivera Bueno, 03/03/1946.")  # doctest: +SKIP
>>> result.text  # doctest: +SKIP
'Paciente: Julián Soler Pardo, 27/01/1944.'

Every name that ``anonimed.deidentify`` offered when it was one module is still importable from here.
"""

from anonimed.deidentify.api import Deidentifier, Result, load_model
from anonimed.deidentify.batch import OUTPUT_FORMATS, STDIO, BatchSummary, deidentify_files

__all__ = [
    "OUTPUT_FORMATS",
    "STDIO",
    "BatchSummary",
    "Deidentifier",
    "Result",
    "deidentify_files",
    "load_model",
]
