"""Training-time augmentation: copies of annotated notes whose names, places, countries and hospitals are swapped
for others of the same type drawn from gazetteers (read from the shared data folder at training time only).

Every swap goes through :meth:`Document.edited`, which moves all later spans exactly.  Within one copy the same
original text always gets the same replacement, so a name repeated in a note stays consistent.  Seeded: the same
seed gives the same copies.
"""

from __future__ import annotations

import csv
import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from anonimed.document import Document, Edit
from anonimed.formats.errors import FormatError
from anonimed.stress import STRESS_SETS

NAME_TYPES = frozenset({"NOMBRE_SUJETO_ASISTENCIA", "NOMBRE_PERSONAL_SANITARIO"})
_SMALL_WORDS = frozenset({"de", "del", "la", "las", "los", "el", "y", "i", "en", "d'", "l'"})


@dataclass(frozen=True)
class Gazetteers:
    given_names: tuple[str, ...]
    surnames: tuple[str, ...]
    towns: tuple[str, ...]
    postcodes: tuple[str, ...]
    countries: tuple[str, ...]
    hospitals: tuple[str, ...]

    @classmethod
    def load(cls, data_dir: str | Path) -> Gazetteers:
        """Read the lists from the shared data folder (``spanish-names-ine``, ``spain-ine-municipalities``...)."""
        data_dir = Path(data_dir)

        def column(relative: str, name: str, limit: int | None = None) -> tuple[str, ...]:
            path = data_dir / relative
            try:
                with path.open(encoding="utf-8", newline="") as stream:
                    rows = [row[name].strip() for row in csv.DictReader(stream)]
            except (OSError, KeyError) as error:
                raise FormatError(path, f"cannot read column {name!r} of this gazetteer: {error}") from None
            return tuple(value for value in rows[:limit] if value)

        # The most frequent names only: rare INE entries are mostly spelling variants that no note would contain.
        given = column("spanish-names-ine/hombres.csv", "nombre", 3000) + column(
            "spanish-names-ine/mujeres.csv", "nombre", 3000
        )
        return cls(
            given_names=tuple(_title(n) for n in given),
            surnames=tuple(_title(n) for n in column("spanish-names-ine/apellidos.csv", "apellido", 5000)),
            towns=tuple(_town(n) for n in column("spain-ine-municipalities/municipios.csv", "nombre")),
            postcodes=column("spain-postal-codes/codigos_postales_municipios.csv", "codigo_postal"),
            countries=column("countries-es-ca/country_es.csv", "value"),
            hospitals=column("spain-hospitals-cnh/cnh_2024_hospitales.csv", "Nombre Centro"),
        )


def _title(name: str) -> str:
    """``MARIA DEL CARMEN`` → ``Maria del Carmen``."""
    return " ".join(w.lower() if w.lower() in _SMALL_WORDS else w.capitalize() for w in name.split())


def _town(name: str) -> str:
    """One official form of a municipality: ``Alicante/Alacant`` → ``Alicante``; ``Rozas, Las`` → ``Las Rozas``."""
    name = name.split("/")[0].strip()
    if ", " in name:
        place, article = name.rsplit(", ", 1)
        name = f"{article} {place}"
    return name


def _like(original: str, replacement: str) -> str:
    """The replacement written in the original's case style (all capitals stay all capitals)."""
    if original.isupper() and len(original) > 1:
        return replacement.upper()
    if original.islower():
        return replacement.lower()
    return replacement


class _Swapper:
    def __init__(self, gazetteers: Gazetteers, rng: random.Random) -> None:
        self.gazetteers = gazetteers
        self.rng = rng
        given = {n.lower() for n in gazetteers.given_names}
        self._is_given = lambda word: word.lower() in given

    def replacement(self, label: str, original: str) -> str | None:
        g, choice = self.gazetteers, self.rng.choice
        if label in NAME_TYPES:
            words = original.split()
            if not all(w.isalpha() for w in words):
                return None  # initials, titles, punctuation: keep the original
            return " ".join(
                w if w.lower() in _SMALL_WORDS else _like(w, choice(g.given_names if self._is_given(w) else g.surnames))
                for w in words
            )
        if label == "TERRITORIO":
            if original.isdigit() and len(original) == 5:
                return choice(g.postcodes)
            return _like(original, choice(g.towns)) if original[:1].isupper() else None
        if label == "PAIS":
            return _like(original, choice(g.countries))
        if label == "HOSPITAL":
            return _like(original, choice(g.hospitals))
        return None


def swap_entities(document: Document, gazetteers: Gazetteers, rng: random.Random) -> Document:
    """A copy of ``document`` with each swappable entity replaced (consistently within the copy)."""
    swapper = _Swapper(gazetteers, rng)
    chosen: dict[tuple[str, str], str | None] = {}
    edits = []
    for span in document.spans:
        if any(other is not span and other.overlaps(span) for other in document.spans):
            continue  # nested annotations: swapping one would cut through the other
        original = document.span_text(span)
        key = (span.label, original)
        if key not in chosen:
            chosen[key] = swapper.replacement(span.label, original)
        replacement = chosen[key]
        if replacement is not None and replacement != original:
            edits.append(Edit(span.start, span.end, replacement))
    return document.edited(edits)


def augmented_copies(
    documents: Iterable[Document], gazetteers: Gazetteers, copies: int, seed: int, layouts: bool = False
) -> list[Document]:
    """``copies`` swapped copies of each document (ids ``ID~aug1``...), reproducible for a given ``seed``.

    With ``layouts``, each copy is also rewritten in a layout that MEDDOCAN's template never shows (one of
    :data:`anonimed.stress.STRESS_SETS`, in turn: capitals, no header keys, other keys, one line...), so that a
    model cannot lean on the template alone.
    """
    transforms = list(STRESS_SETS.values())
    rng = random.Random(seed)
    result = []
    for index, document in enumerate(documents):
        for number in range(1, copies + 1):
            copy = swap_entities(document, gazetteers, rng)
            if layouts:
                copy = transforms[(index * copies + number) % len(transforms)](copy, rng)
            copy.id = f"{document.id}~aug{number}"
            result.append(copy)
    return result
