"""Every file format anonimed reads and writes, behind one small registry.

| format  | a document is                                   | suffixes                      |
| ------- | ----------------------------------------------- | ----------------------------- |
| `brat`  | ``ID.txt`` + ``ID.ann`` in a folder             | ``.txt`` (``.ann`` beside it) |
| `xml`   | ``ID.xml`` (MEDDOCAN, i2b2-like) in a folder    | ``.xml``                      |
| `plain` | ``ID.txt`` in a folder, no spans                | ``.txt``                      |
| `jsonl` | one line of one file                            | ``.jsonl``, ``.ndjson``       |
| `conll` | one ``# doc_id`` block of one file              | ``.conll``, ``.bio``, ``.bioes``, ``.tsv`` |

:func:`read_documents` takes a file or a folder (the format guessed when not given), :func:`write_documents` writes
a folder (one file per document; a document's files all or none) or a single file (``jsonl``, ``conll``), and
:func:`convert` goes from one to the other, recording each bad file or document and going on with the rest.  Every
file is written atomically.

One module a job: :mod:`.registry` (the formats and guessing one), :mod:`.documents` (reading and writing many
documents), :mod:`.convert`; one module a format (:mod:`.brat`, :mod:`.xml`, :mod:`.plain`, :mod:`.jsonl`,
:mod:`.conll`) and the safe text input and output they share (:mod:`.textio`, :mod:`.errors`).
"""

from anonimed.formats.convert import ConvertSummary, convert
from anonimed.formats.documents import ErrorHandler, read_documents, write_documents
from anonimed.formats.registry import FORMATS, Format, Reader, get_format, guess_format

__all__ = [
    "FORMATS",
    "ConvertSummary",
    "ErrorHandler",
    "Format",
    "Reader",
    "convert",
    "get_format",
    "guess_format",
    "read_documents",
    "write_documents",
]
