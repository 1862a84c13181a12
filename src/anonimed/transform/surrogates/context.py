"""What the surrogate generators of one document share: keyed randomness, the date offset, the patient's sex and
the surrogates already chosen (so that a street e-mail or a partial name agrees with what came before)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from random import Random

from anonimed.document import Document
from anonimed.transform.keys import Keyring
from anonimed.transform.surrogates.datetext import shift_dates_by
from anonimed.transform.surrogates.text import fold

FEMALE_WORDS = frozenset({"mujer", "femenino", "femenina", "f", "hembra", "nina", "nena", "dona", "noia", "senora"})
MALE_WORDS = frozenset({"hombre", "varon", "masculino", "h", "macho", "nino", "nen", "home", "noi", "senor"})

_OFFSET_DRAWS = 20
# Characters from which another mention written inside a shifted date still shows (2023 in 15 DE JULIO DE 2023).
_MENTION_WITHIN_A_DATE = 4
_DOCUMENT_FACTS = (
    "date_offset",
    "patient_gender",
    "catalan",
    "phi_words",
    "mention_texts",
    "mention_words",
)  # cached properties that ignore the salt
# Types whose words name someone or somewhere: no surrogate of the note may repeat one of them.
_NAMING_TYPES = frozenset(
    {
        "NOMBRE_SUJETO_ASISTENCIA",
        "NOMBRE_PERSONAL_SANITARIO",
        "FAMILIARES_SUJETO_ASISTENCIA",
        "HOSPITAL",
        "CENTRO_SALUD",
        "INSTITUCION",
        "CALLE",
        "TERRITORIO",
    }
)
# Words inside such mentions that name nobody: function words, titles, kinds of street and centre, kinship.  A
# surrogate may share these with the note's PHI ("Hospital General de ..." for "Hospital General de Villalba").
_GENERIC_WORDS = frozenset(
    """de del la las los el en y i e da dos don dona dra sra srta senor senora sr dr doctor doctora
    calle carrer avenida avinguda avda plaza placa paseo passeig carretera camino cami ronda travesia rambla via
    urbanizacion glorieta pasaje passatge barrio piso planta puerta escalera bajo izquierda derecha izq dcha
    hospital hospitalario hospitalaria hospitalari complejo complex clinico clinica clinic universitario
    universitaria universitari general centro centre salud salut atencion atencio primaria area zona cap
    consultorio servicio servei instituto institut fundacion fundacio residencia colegio universidad universitat
    ayuntamiento ajuntament provincia san santa sant santo nuestra senyora virgen mare deu
    madre padre hijo hija hermano hermana esposo esposa marido mujer abuelo abuela nieto nieta tio tia primo prima
    sobrino sobrina pareja mare pare fill filla germa germana marit avi avia cosi cosina nebot neboda parella su
    sus seu seva hijos hijas hermanos hermanas padres abuelos nietos tios primos sobrinos gemelo gemela fills
    filles germans pares avis cosins anos meses dias semanas anys mesos dies setmanes""".split()
)
_WORDS = re.compile(r"[^\W\d_]{3,}")
_LANGUAGE_SAMPLE = 20_000  # characters: enough function words to tell Catalan from Spanish
_CATALAN_MARKERS = frozenset({"amb", "els", "dels", "anys", "seva", "aquest", "pel", "per", "va", "mesos", "i"})
_SPANISH_MARKERS = frozenset({"con", "los", "del", "anos", "su", "este", "por", "el", "meses", "y", "que"})


@dataclass(frozen=True)
class SurrogateOptions:
    """``sex``: "keep" the patient's sex as written, or "swap" it; ``kinship``: "swap" a relative's kinship word for
    another (``madre`` → ``abuela``: the guidelines count kinship as PHI) or "keep" it, so that a family history keeps
    its meaning (relatives' names are replaced either way); ``min_date_shift``/``max_date_shift`` bound the
    per-patient date offset in days (its remainder modulo a year stays away from 0, so that even a month or a
    day-and-month changes, and it is no whole number of weeks, so that a weekday changes too)."""

    sex: str = "keep"
    kinship: str = "swap"
    min_date_shift: int = 365
    max_date_shift: int = 3 * 365

    def __post_init__(self) -> None:
        for name in ("sex", "kinship"):
            if getattr(self, name) not in ("keep", "swap"):
                raise ValueError(f"{name} option must be 'keep' or 'swap', got {getattr(self, name)!r}")
        if not 0 < self.min_date_shift <= self.max_date_shift:
            raise ValueError(f"invalid date shift range {self.min_date_shift}..{self.max_date_shift}")


@dataclass
class PersonSurrogate:
    """A surrogate name as parts, for building e-mail addresses from it."""

    given: list[str]
    surnames: list[str]


@dataclass
class SurrogateContext:
    document: Document
    keyring: Keyring
    options: SurrogateOptions = field(default_factory=SurrogateOptions)
    memo: dict[tuple[str, ...], str] = field(default_factory=dict)
    people: list[tuple[str, PersonSurrogate]] = field(default_factory=list)
    salt: str = ""
    # The words that the note's person mentions show to be surnames (filled by the name generator when first needed).
    note_surnames: frozenset[str] | None = None

    @property
    def scope(self) -> str:
        """Entities are shared across documents only with a key; otherwise each document is its own world."""
        return "" if self.keyring.cross_document else f"doc:{self.document.id}"

    def random(self, *parts: str) -> Random:
        return self.keyring.random(self.scope, self.salt, *parts)

    def retry(self, attempt: int) -> SurrogateContext:
        """The same context (shared memory of the document) drawing other values, for a draw that hit the original."""
        clone = replace(self, salt=f"retry:{attempt}")
        # Facts of the document do not depend on the salt: hand over those already worked out (the date offset
        # scans the document's dates, the language its opening) instead of working them out again on every retry.
        for name in _DOCUMENT_FACTS:
            if name in self.__dict__:
                clone.__dict__[name] = self.__dict__[name]
        return clone

    @cached_property
    def date_offset(self) -> int:
        """Days added to every date of the patient: one per patient key (metadata "patient"), else one per document.

        A document's own offset is drawn again (up to 20 times) while one of its shifted dates would hold the text of
        another of its PHI mentions (``2005`` shifted onto the ``2007`` of the next line, ``12 DE JUNIO DE 2025`` onto
        ``15 DE JULIO DE 2023`` beside a ``(2023)``): the output would then still show that mention's text.  A
        patient's offset is shared by all their notes and cannot be chosen per note.
        """
        patient = self.document.metadata.get("patient")
        rng = self.keyring.random("date-offset", f"patient:{patient}" if patient else f"doc:{self.document.id}")
        first = offset = self._draw_offset(rng)
        for _ in range(0 if patient else _OFFSET_DRAWS - 1):
            if not self._recreates_a_mention(offset):
                return offset
            offset = self._draw_offset(rng)
        return offset if patient or not self._recreates_a_mention(offset) else first

    def _draw_offset(self, rng: Random) -> int:
        low, high = self.options.min_date_shift, self.options.max_date_shift
        while True:
            days = rng.randint(low, high)
            # Not a whole number of weeks either, or every weekday (el lunes, dilluns i dimecres) would stay.
            if 31 <= days % 365 <= 334 and days % 7:
                return days if rng.random() < 0.5 else -days

    @cached_property
    def mention_texts(self) -> frozenset[str]:
        """The folded text of every PHI mention of the note: a surrogate equal to one would show it again."""
        return frozenset(fold(self.document.span_text(span).strip()) for span in self.document.spans) - {""}

    @cached_property
    def mention_words(self) -> frozenset[str]:
        """The folded words of the note's PHI mentions (a weekday that one names: ``martes`` of ``martes domis``)."""
        return frozenset(word for text in self.mention_texts for word in _WORDS.findall(text))

    def _recreates_a_mention(self, offset: int) -> bool:
        mentions = self.mention_texts
        # Within a date, only a mention long enough to say something (a year, a name): not the "d" of a Catalan sex.
        longer = "|".join(rf"(?<!\w){re.escape(m)}(?!\w)" for m in mentions if len(m) >= _MENTION_WITHIN_A_DATE)
        within = re.compile(longer) if longer else None
        language = "ca" if self.catalan else "es"
        for span in self.document.spans:
            if span.label == "FECHAS":
                # Weekdays as the dates' generator writes them: past those the note names (see shift_weekdays).
                shifted = shift_dates_by(self.document.span_text(span), offset, language, self.mention_words)
                if shifted is None:
                    continue
                folded = fold(shifted.strip())
                if folded in mentions or (within is not None and within.search(folded)):
                    return True
        return False

    @cached_property
    def patient_gender(self) -> str | None:
        """ "F" or "M" when a sex span of the document says so."""
        for span in self.document.spans:
            if span.label == "SEXO_SUJETO_ASISTENCIA":
                word = fold(self.document.span_text(span)).replace(" ", "")
                if word in FEMALE_WORDS:
                    return "F"
                if word in MALE_WORDS:
                    return "M"
        return None

    @cached_property
    def catalan(self) -> bool:
        """Whether the note is written in Catalan (more Catalan than Spanish function words), for generated words."""
        # The opening of the note tells its language; folding all of a very long note would cost memory for nothing.
        words = fold(self.document.text[:_LANGUAGE_SAMPLE]).split()
        catalan = sum(w in _CATALAN_MARKERS for w in words)
        return catalan > sum(w in _SPANISH_MARKERS for w in words)

    @cached_property
    def phi_words(self) -> frozenset[str]:
        """The folded words that name someone or somewhere in the note's PHI (``pablo``, ``villalba``): a surrogate
        that held one would show that word of the note again, or tie two of its people together."""
        words = set()
        for span in self.document.spans:
            if span.label in _NAMING_TYPES:
                words.update(_WORDS.findall(fold(self.document.span_text(span))))
        return frozenset(words - _GENERIC_WORDS)

    def names_phi_word(self, surrogate: str) -> bool:
        """Whether ``surrogate`` holds a word that names someone or somewhere in the note's PHI."""
        return any(word in self.phi_words for word in _WORDS.findall(fold(surrogate)))

    def remember_person(self, label: str, person: PersonSurrogate) -> None:
        self.people.append((label, person))

    def latest_person(self) -> PersonSurrogate | None:
        """The clinician named last, else the last person named (an e-mail in a note is the referring doctor's)."""
        for label, person in reversed(self.people):
            if label == "NOMBRE_PERSONAL_SANITARIO":
                return person
        return self.people[-1][1] if self.people else None
