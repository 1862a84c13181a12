"""One generator per PHI type, and the rules that hold for all of them.

:func:`surrogate` remembers what it gave for each (type, original) in the document, so an entity gets one surrogate
everywhere, and retries with a new draw until the surrogate differs from the original (ages and sex, which are kept
on purpose, are the exception; a mention that no generator can vary gets new characters or a tag).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from anonimed.schema import LABELS, canonical_label
from anonimed.transform.surrogates import dates, facts, names, numbers, places
from anonimed.transform.surrogates.context import SurrogateContext
from anonimed.transform.surrogates.text import fold

Generator = Callable[[str, SurrogateContext], str]

# Types whose value is kept by design: ages (only 90+ is generalised) and the patient's sex (unless swapped).
KEPT_TYPES = frozenset({"EDAD_SUJETO_ASISTENCIA", "SEXO_SUJETO_ASISTENCIA"})


def _date(original: str, context: SurrogateContext) -> str:
    shifted = dates.shift_dates(original, context)
    if shifted is not None:
        return shifted
    # No date layout found (a festivity, "Navidad", a day without its month): the digits, if any, change and a weekday
    # moves as dates do (divendres 7); a word alone becomes a month, not one the note names elsewhere (San Fermín →
    # marzo beside a real "en marzo" would show it again).
    if re.search(r"\d", original):
        rng = context.random("date", fold(original))
        moved = dates.shift_weekdays(original, context.date_offset, context.mention_words)
        return re.sub(r"\d+", lambda digits: numbers.reshape(digits.group(), rng), moved)
    months = dates.MONTHS["ca" if context.catalan else "es"]
    free = [month for month in months if fold(month) not in context.mention_texts] or list(months)
    return context.random("date", fold(original)).choice(free)


def _name(label: str) -> Generator:
    return lambda original, context: names.person_surrogate(original, label, context)


def _identifier(label: str) -> Generator:
    return lambda original, context: numbers.identifier(original, label, context)


def _relative(original: str, context: SurrogateContext) -> str:
    def name_surrogate(name: str, gender: str | None) -> str:
        return names.person_surrogate(name, "FAMILIARES_SUJETO_ASISTENCIA", context, gender=gender, given_first=True)

    return facts.relative(original, context, name_surrogate)


def _internet_address(original: str, context: SurrogateContext) -> str:
    network = numbers.network_address(original, context.random("net", fold(original)))
    return network or numbers.url(original, context)


GENERATORS: dict[str, Generator] = {
    "NOMBRE_SUJETO_ASISTENCIA": _name("NOMBRE_SUJETO_ASISTENCIA"),
    "NOMBRE_PERSONAL_SANITARIO": _name("NOMBRE_PERSONAL_SANITARIO"),
    "PROFESION": facts.profession,
    "HOSPITAL": places.hospital,
    "CENTRO_SALUD": places.health_centre,
    "INSTITUCION": places.institution,
    "CALLE": places.street,
    "TERRITORIO": places.territory,
    "PAIS": places.country,
    "EDAD_SUJETO_ASISTENCIA": dates.generalise_age,
    "FECHAS": _date,
    "NUMERO_TELEFONO": lambda original, context: numbers.phone(original, "NUMERO_TELEFONO", context),
    "NUMERO_FAX": lambda original, context: numbers.phone(original, "NUMERO_FAX", context),
    "CORREO_ELECTRONICO": numbers.email,
    "URL_WEB": numbers.url,
    "SEXO_SUJETO_ASISTENCIA": facts.sex,
    "FAMILIARES_SUJETO_ASISTENCIA": _relative,
    "OTROS_SUJETO_ASISTENCIA": facts.other_fact,
    "DIREC_PROT_INTERNET": _internet_address,
    **{label: _identifier(label) for label in LABELS if label.startswith(("ID_", "IDENTIF_", "NUMERO_BENEF", "OTRO_"))},
}
assert set(GENERATORS) == set(LABELS), "every PHI type needs a surrogate generator"

_ATTEMPTS = 8


def _last_resort(label: str, original: str, context: SurrogateContext) -> str:
    """For a mention no generator can vary (a detector's stray ``0`` or ``-`` as a name): new characters of the same
    kinds, or, with no letter or digit to change, the type's name in brackets."""
    reshaped = numbers.reshape(original, context.random("last-resort", label, fold(original)))
    return reshaped if fold(reshaped) != fold(original) else f"[{label}]"


def _must_draw_again(new: str, original: str, context: SurrogateContext) -> bool:
    """A surrogate equal to its original, or holding a word that names someone or somewhere in the note's PHI (the
    doctor's surrogate ``Narciso Pablo Ortiz`` in a note whose patient is ``Pablo``), is drawn again."""
    return fold(new) == fold(original) or context.names_phi_word(new)


def surrogate(label: str, original: str, context: SurrogateContext) -> str:
    """A realistic replacement of ``original`` (a ``label`` mention), the same for the same entity in the document."""
    label = canonical_label(label)
    memo_key = (label, original)
    if memo_key in context.memo:
        return context.memo[memo_key]
    generate = GENERATORS[label]
    new = generate(original, context)
    may_stay = label in KEPT_TYPES or (label == "FAMILIARES_SUJETO_ASISTENCIA" and context.options.kinship == "keep")
    attempt = 0
    while _must_draw_again(new, original, context) and not may_stay and attempt < _ATTEMPTS:
        attempt += 1
        new = generate(original, context.retry(attempt))
    if fold(new) == fold(original) and not may_stay:
        new = _last_resort(label, original, context)
    context.memo[memo_key] = new
    return new
