"""Forms that print their keys in a row and the values in the row under them, read as one ``key: value`` line each.

Hospital information systems export admission sheets and requests as columns::

    N.º HISTORIA          EPISODIO              SEXO      F. NACIMIENTO
    1029384               2025/0188431          MUJER     03/05/1958

A model reads a note line by line: the values come far from their keys, and the keys (``EPISODIO``, ``Nº PÓLIZA``,
``Nº COLEGIADO``) are what tells an episode number from a policy or a licence number.  In a blind batch of invented
notes (issue #17), two notes of twelve with such headers left 4 of their identifiers verbatim after de-identification.
The form the models read (:func:`anonimed.text.normalize.detection_form`) therefore writes each value after its key::

    N.º HISTORIA: 1029384
    EPISODIO: 2025/0188431
    ...

Every character of a value maps back to itself; the keys, colons and line breaks written in map to the edges of the
value, so that a span over ``EPISODIO: 2025/0188431`` goes back to the value alone and one over a key alone to
nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

# Cells of a row: runs of characters without two spaces in a row (a tab also separates).
_CELL = re.compile(r"\S+(?: \S+)*")
# A key: a capital letter first (N.º, Nº, C.P., F. NACIMIENTO, Médico responsable), at most five words, no digit, no
# colon (``Origen:   Hospital ...`` is a key and its value on one line already).
_KEY = re.compile(r"(?:N\.?[ºo°]\.?[ \t]?)?[A-ZÁÉÍÓÚÑÇ][^\d:|\[\]]{0,38}(?<![:,;])")
_MAX_KEY_WORDS = 5
# How many columns a value may start away from its key's start.
_COLUMN_SLACK = 2
# Words of the keys such forms print, in lower case: a key holds one (``F. NACIMIENTO``, ``Nº PÓLIZA``), a name or a
# value seldom does, which tells a row of keys from a row of a two-column table (``Nombre y apellidos    Ezequiel
# Sáenz``, ``Domicilio    C/ Mayor 3``: its keys are in its first column, its values in the second).
_KEY_WORDS = frozenset(
    (
        "nº n.º no historia nhc hc episodio episodi sexo sexe nacimiento naixement nac edad edat domicilio domicili "
        "dirección direccion adreça localidad población poblacion població municipio municipi provincia c.p. cp "
        "código codigo postal teléfono telefono telèfon telf tlf móvil movil mòbil fax correo email e-mail "
        "aseguradora mutua póliza poliza pòlissa financiador cobertura fecha data hora ingreso ingrés alta "
        "procedencia destino origen servicio servei unidad unitat médico medico metge metgessa responsable "
        "colegiado col·legiat colegiada acceso petición peticion solicitante paciente pacient usuario usuari "
        "nombre nom apellidos cognoms dni nie nif cip tis sip nuss nass pasaporte cama llit habitación habitacion "
        "habitació planta estudio exploración exploracion modalidad prioridad radiólogo radiologo radiòleg firma "
        "contacto parentesco persona empresa puesto profesión profesion ocupación ocupacion nacionalidad país pais "
        "idioma estado civil referencia tipo"
    ).split()
)


@dataclass(frozen=True)
class _Cell:
    start: int
    end: int


def _columns(text: str, start: int, end: int) -> list[_Cell]:
    """The cells of a line whose cells are apart by two spaces or more (one space joins the words of a cell)."""
    return [_Cell(m.start(), m.end()) for m in _CELL.finditer(text, start, end)]


def _reads_as_key(text: str, cell: _Cell) -> bool:
    words = text[cell.start : cell.end].lower().split()
    return (
        _KEY.fullmatch(text, cell.start, cell.end) is not None
        and len(words) <= _MAX_KEY_WORDS
        and any(word.strip(".:/()") in _KEY_WORDS or word in _KEY_WORDS for word in words)
    )


def _key_above(keys: Sequence[_Cell], line_start: int, column: int) -> _Cell | None:
    """The key whose column a value starting at ``column`` is in: the same start, give or take a column or two (a
    value typed one space to the left of its key)."""
    return next((key for key in keys if abs(key.start - line_start - column) <= _COLUMN_SLACK), None)


def _is_key_row(text: str, cells: Sequence[_Cell]) -> bool:
    return len(cells) >= 2 and all(_reads_as_key(text, cell) for cell in cells)


def keyed_values(text: str) -> tuple[str, list[int], list[int]] | None:
    """``None`` when ``text`` has no row of keys over a row of values; otherwise the text with each such pair of rows
    written as ``key: value`` lines, and for each of its characters where its source starts and ends in ``text``.

    A pair: a line of two cells or more that all read as keys, and under it a line whose cells each start in the
    column of one of those keys, give or take two columns (values may be missing; a value under no key's start, or two
    under one key, leave the pair as it is)."""
    if "  " not in text and "\t" not in text:
        return None  # no line of the note has cells: most notes, at the cost of one scan
    lines = []
    line_start = 0
    for line in text.split("\n"):
        lines.append((line_start, line_start + len(line)))
        line_start += len(line) + 1
    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    copied = 0  # where the text not yet written out starts
    index = 0
    while index + 1 < len(lines):
        key_line, value_line = lines[index], lines[index + 1]
        keys = _columns(text, *key_line)
        values = _columns(text, *value_line) if _is_key_row(text, keys) else []
        above = [_key_above(keys, key_line[0], value.start - value_line[0]) for value in values]
        under = [key for key in above if key is not None]
        if not (
            len(values) >= 2
            and len(set(under)) == len(values)  # each value under a key of its own
            and not any(_reads_as_key(text, value) for value in values)
        ):
            index += 1
            continue
        pieces.append(text[copied : key_line[0]])
        starts.extend(range(copied, key_line[0]))
        ends.extend(range(copied + 1, key_line[0] + 1))
        for number, (value, key) in enumerate(zip(values, under)):
            written = f"{text[key.start : key.end]}: "
            pieces.append(written)
            starts.extend([value.start] * len(written))
            ends.extend([value.start] * len(written))
            pieces.append(text[value.start : value.end])
            starts.extend(range(value.start, value.end))
            ends.extend(range(value.start + 1, value.end + 1))
            if number < len(values) - 1:
                pieces.append("\n")
                starts.append(value.end)
                ends.append(value.end)
        copied = value_line[1]
        index += 2
    if not pieces:
        return None
    pieces.append(text[copied:])
    starts.extend(range(copied, len(text)))
    ends.extend(range(copied + 1, len(text) + 1))
    return "".join(pieces), starts, ends
