"""Person names: each word of a mention is replaced on its own, keeping the mention's shape.

Titles (``Dr.``, ``Sra.``), particles (``de``, ``del``, ``i``), initials, punctuation and spacing stay where they are;
given names become given names of the same sex and surnames become surnames.  Because every word is mapped through
the same keyed choice, a partial mention agrees with the full one: ``Ernesto Rivera Bueno`` … ``Sr. Rivera`` gives
``Julián Soler Pardo`` … ``Sr. Soler``.
"""

from __future__ import annotations

import re
import string

from anonimed.transform.surrogates import pools
from anonimed.transform.surrogates.context import PersonSurrogate, SurrogateContext
from anonimed.transform.surrogates.text import fold, match_case

_WORD = re.compile(r"[^\W\d_]+\.?")
FEMALE_TITLES = frozenset({"dra", "sra", "srta", "dna", "dª", "dona", "na"})
MALE_TITLES = frozenset({"dr", "sr", "d", "don", "en"})
PARTICLES = frozenset({"de", "del", "la", "las", "los", "y", "i", "e", "da", "dos", "van", "von"})


def person_surrogate(
    original: str, label: str, context: SurrogateContext, gender: str | None = None, given_first: bool = False
) -> str:
    """The surrogate of a name mention.  ``gender`` ("F"/"M") says the person's sex when the text around the mention
    does (``hija Amaia``); ``given_first`` says a lone unknown word is a given name rather than a surname."""
    words, titles, name_words = _parts(original)
    title_gender = _title_gender(titles)
    given = _given_flags(name_words, bool(titles), given_first, context)
    given_words = [m for m, is_given in zip(name_words, given) if is_given]
    gender = _mention_gender(given_words, gender or title_gender, label, context, original)
    person = PersonSurrogate([], [])
    pieces, cursor = [], 0
    for match in words:
        word = match.group()
        if match in titles or fold(word) in PARTICLES:
            continue
        if len(word.rstrip(".")) == 1:
            new = _initial(word, context)
        elif match in given_words:
            new = _given_name(word, gender, context)
            person.given.append(new)
        else:
            new = _surname(word, context)
            person.surnames.append(new)
        pieces.append(original[cursor : match.start()])
        pieces.append(match_case(word, new))
        cursor = match.end()
    pieces.append(original[cursor:])
    context.remember_person(label, person)
    return "".join(pieces)


def _parts(original: str) -> tuple[list[re.Match[str]], list[re.Match[str]], list[re.Match[str]]]:
    """A mention's words, its titles, and its name words (neither titles, particles nor initials)."""
    words = list(_WORD.finditer(original))
    titles = [m for m in words if fold(m.group().rstrip(".")) in FEMALE_TITLES | MALE_TITLES]
    name_words = [
        m for m in words if m not in titles and fold(m.group()) not in PARTICLES and len(m.group().rstrip(".")) > 1
    ]
    return words, titles, name_words


def _given_flags(
    name_words: list[re.Match[str]], has_title: bool, given_first: bool, context: SurrogateContext
) -> list[bool]:
    """Which name words are given names.  Where the mention has no known given name, so that its first word is a
    given name by guess only, a word that another mention of the note shows to be a surname (``GALINDO`` after
    ``TOMÁS GALINDO``) stays a surname, and so keeps its surrogate."""
    count = _given_count(name_words, has_title, given_first)
    flags = [index < count for index in range(len(name_words))]
    if name_words and not _known_given(name_words[0]):
        surnames = _note_surnames(context)
        flags = [flag and fold(match.group()) not in surnames for flag, match in zip(flags, name_words)]
    return flags


def _known_given(word: re.Match[str]) -> bool:
    return fold(word.group()) in pools.given_name_genders()


def _note_surnames(context: SurrogateContext) -> frozenset[str]:
    """The words that the note's person mentions show to be surnames: those after a known given name."""
    if context.note_surnames is None:
        surnames: set[str] = set()
        for span in context.document.spans:
            if span.label in ("NOMBRE_SUJETO_ASISTENCIA", "NOMBRE_PERSONAL_SANITARIO"):
                _, titles, name_words = _parts(context.document.span_text(span))
                count = _given_count(name_words, bool(titles), given_first=False)
                if name_words and _known_given(name_words[0]):
                    surnames.update(fold(match.group()) for match in name_words[count:])
        context.note_surnames = frozenset(surnames)
    return context.note_surnames


def _title_gender(titles: list[re.Match[str]]) -> str | None:
    for title in titles:
        key = fold(title.group().rstrip("."))
        if key in FEMALE_TITLES:
            return "F"
        if key in {"sr", "don", "d", "en"}:  # "Dr." is written for women too, so only these say "male"
            return "M"
    return None


def _given_count(name_words: list[re.Match[str]], has_title: bool, given_first: bool) -> int:
    """How many leading words are given names: the known given names in front (``Rivera Bueno`` alone, as in an
    ``Apellidos:`` field, is all surnames), else the first of three or more words (``Iñaki Arregui Mendizábal``),
    and never all of several words after a title (``Dr. Martín León``)."""
    known = pools.given_name_genders()
    count = 0
    while count < len(name_words) and fold(name_words[count].group()) in known:
        count += 1
    if count == 0 and (len(name_words) >= 3 or (given_first and name_words)):
        count = 1
    return min(count, len(name_words) - 1) if has_title and len(name_words) > 1 else count


def _mention_gender(
    given: list[re.Match[str]], title_gender: str | None, label: str, context: SurrogateContext, original: str
) -> str:
    known = pools.given_name_genders()
    for word in given:
        word_gender = known.get(fold(word.group()))
        if word_gender:
            return word_gender
    if title_gender:
        return title_gender
    if label == "NOMBRE_SUJETO_ASISTENCIA" and context.patient_gender:
        return context.patient_gender
    return context.random("gender", fold(original)).choice("FM")


def _given_name(word: str, gender: str, context: SurrogateContext) -> str:
    # Catalan names in a Catalan note, or for a name only Catalan uses (Faker's Spanish list has "Jordi" too).
    catalan = context.catalan or fold(word) in pools.catalan_given_names()
    rng = context.random("given", gender, fold(word))
    return pools.given_names(gender, catalan).pick(rng, avoid=word, also_avoid=context.phi_words).split()[0]


def _surname(word: str, context: SurrogateContext) -> str:
    return pools.surnames().pick(context.random("surname", fold(word)), avoid=word, also_avoid=context.phi_words)


def _initial(word: str, context: SurrogateContext) -> str:
    letter = word[0].upper()
    choices = [c for c in string.ascii_uppercase if c != letter and c not in "KQWXY"]
    return context.random("initial", letter).choice(choices) + word[1:]
