"""The text builder that records exact offsets, and the invented values written into notes: people, ages and dates
in words, identifiers with valid check characters, phones, addresses and centres.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from anonimed.document import Document, Span
from anonimed.schema import PHI_TYPES
from anonimed.train.synthetic.sources import Sources, Town

Piece = str | tuple[str, str]
T = TypeVar("T")

NAME = "NOMBRE_SUJETO_ASISTENCIA"
DOCTOR = "NOMBRE_PERSONAL_SANITARIO"
JOB = "PROFESION"
HOSPITAL = "HOSPITAL"
CENTRE = "CENTRO_SALUD"
INSTITUTION = "INSTITUCION"
STREET = "CALLE"
PLACE = "TERRITORIO"
COUNTRY = "PAIS"
AGE = "EDAD_SUJETO_ASISTENCIA"
DATE = "FECHAS"
PHONE = "NUMERO_TELEFONO"
FAX = "NUMERO_FAX"
EMAIL = "CORREO_ELECTRONICO"
URL = "URL_WEB"
PATIENT_ID = "ID_SUJETO_ASISTENCIA"
EPISODE = "ID_CONTACTO_ASISTENCIAL"
INSURANCE = "ID_ASEGURAMIENTO"
LICENCE = "ID_TITULACION_PERSONAL_SANITARIO"
SEX = "SEXO_SUJETO_ASISTENCIA"
RELATIVE = "FAMILIARES_SUJETO_ASISTENCIA"
OTHER = "OTROS_SUJETO_ASISTENCIA"


class Builder:
    """Appends plain pieces and PHI pieces ``(text, TYPE)``; each PHI piece's span is recorded where it lands."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._spans: list[Span] = []
        self._length = 0

    def __call__(self, *pieces: Piece) -> None:
        for piece in pieces:
            if isinstance(piece, str):
                self._append(piece)
                continue
            text, label = piece
            if label not in PHI_TYPES or not text or text != text.strip() or "\n" in text:
                raise ValueError(f"bad PHI piece {text!r} ({label})")
            self._spans.append(Span(self._length, self._length + len(text), label, source="synthetic"))
            self._append(text)

    def _append(self, text: str) -> None:
        if text.startswith(".") and self._parts and self._parts[-1].endswith("."):
            text = text[1:]  # "S.A." at the end of a sentence takes no second full stop
        self._parts.append(text)
        self._length += len(text)

    def document(self, identifier: str, style: str) -> Document:
        return Document(identifier, "".join(self._parts), sorted(self._spans), {"style": style})


_UNITS_ES = (
    "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciséis diecisiete "
    "dieciocho diecinueve veinte veintiuno veintidós veintitrés veinticuatro veinticinco veintiséis veintisiete "
    "veintiocho veintinueve"
).split()
_TENS_ES = {3: "treinta", 4: "cuarenta", 5: "cincuenta", 6: "sesenta", 7: "setenta", 8: "ochenta", 9: "noventa"}
_UNITS_CA = (
    "zero u dos tres quatre cinc sis set vuit nou deu onze dotze tretze catorze quinze setze disset divuit dinou"
).split()
_TENS_CA = {
    2: "vint",
    3: "trenta",
    4: "quaranta",
    5: "cinquanta",
    6: "seixanta",
    7: "setanta",
    8: "vuitanta",
    9: "noranta",
}
MONTHS_ES = "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre".split()
MONTHS_CA = "gener febrer març abril maig juny juliol agost setembre octubre novembre desembre".split()
DAYS_ES = "lunes martes miércoles jueves viernes sábado domingo".split()
DAYS_CA = "dilluns dimarts dimecres dijous divendres dissabte diumenge".split()
FEASTS_ES = ("Nochebuena", "Nochevieja", "día de Reyes", "Navidad", "Semana Santa", "San Juan", "Año Nuevo")
FEASTS_CA = ("Sant Joan", "Cap d'Any", "Nadal", "Sant Esteve", "Reis", "Setmana Santa", "Sant Jordi")
_ACCENTS = {
    w.lower().replace("á", "a").replace("é", "e").replace("í", "i").replace("ó", "o").replace("ú", "u"): w
    for w in (
        "José María Jesús Ángel Ramón Joaquín Sebastián Adrián Martín Andrés Nicolás Julián Tomás Álvaro Iván Rubén "
        "Óscar Víctor Raúl Inés Sofía Lucía Mónica Verónica Ángela Begoña Rocío Concepción Asunción Encarnación "
        "García González Rodríguez Fernández López Martínez Sánchez Pérez Gómez Jiménez Hernández Díaz Álvarez "
        "Ramírez Gutiérrez Domínguez Vázquez Ramos Núñez Suárez Méndez Márquez Benítez Martín Rubio Gil Sáez Cortés"
    ).split()
}
CATALAN_MEN = "Jordi Pere Joan Quim Josep Pau Arnau Marc Oriol Xavier Sergi Albert Jaume Ferran Roger Pol".split()
CATALAN_WOMEN = "Montserrat Núria Mireia Anna Laia Meritxell Roser Eulàlia Neus Glòria Montse Mercè Carme Aina".split()
CATALAN_SURNAMES = (
    "Puig Vila Soler Ferrer Serra Pujol Roca Vidal Bosch Mas Casals Font Riera Sala Prat Coll Pons Batlle Camps "
    "Sabaté Vilalta Grau Oliver Bonet Ribas Ros Cases Torrent Mir Rovira Vendrell Pagès Garriga Estruch Boix"
).split()
# Surnames and given names that are also ordinary words: people really called so (hard negatives nearby).
WORD_NAMES = ("Cabeza", "Rey", "Moreno", "Sol", "Rosa", "Blanco", "Calvo", "Bravo", "Lobo", "Leal")
SAINTS = "Sant Andreu|Sant Adrià|Santa Eulàlia|Sant Martí|Sant Pere|Santa Anna|San Blas|San Roque|Santa Clara"
BARRIOS = (
    "Delicias Arrabal Almozara Torrero Gràcia Horta Sants Poblenou Ruzafa Benimaclet Triana Carabanchel Usera "
    "Vallecas Ensanche Actur Gamonal Pizarrales Zaidín Milagrosa Fuensanta Canillejas Llefià Bellvitge Collblanc"
).split()
STREET_NAMES = (
    "Mayor|Real|Nueva|del Sol|de la Paz|Alfonso XIII|de Goya|de la Constitución|del Carmen|San Vicente|de Aragón|"
    "de Valencia|del Pilar|de Cervantes|Doctor Fleming|de las Flores|del Mar|Castilla|Iglesia|del Río"
).split("|")
CATALAN_STREET_NAMES = (
    "Major|de Sant Adrià|de la Pau|de Balmes|del Mar|de Mallorca|de Sant Joan|Nou|de l'Església|de la Riera|"
    "de Pere IV|del Pi|de Verdaguer|de la Font|de Sant Antoni|de Gràcia|Ample|de les Flors|del Roser"
).split("|")


def accented(name: str) -> str:
    return " ".join(_ACCENTS.get(w.lower(), w) for w in name.split())


def words_es(number: int) -> str:
    if number < 30:
        return _UNITS_ES[number]
    tens, units = divmod(number, 10)
    return _TENS_ES[tens] + (f" y {_UNITS_ES[units]}" if units else "")


def words_ca(number: int) -> str:
    if number < 20:
        return _UNITS_CA[number]
    tens, units = divmod(number, 10)
    if not units:
        return _TENS_CA[tens]
    return _TENS_CA[tens] + ("-i-" if tens == 2 else "-") + _UNITS_CA[units]


@dataclass
class Person:
    given: str
    first: str
    second: str
    female: bool

    @property
    def full(self) -> str:
        return f"{self.given} {self.first} {self.second}"


@dataclass
class Values:
    """Invented values for one note, drawn with the note's own random generator."""

    rng: random.Random
    sources: Sources
    catalan: bool
    today: dt.date = field(init=False)
    separator: str = ""  # the note's usual separator between a key and its value

    def __post_init__(self) -> None:
        self.today = dt.date(2018, 1, 1) + dt.timedelta(days=self.rng.randrange(2900))

    def pick(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]

    def chance(self, probability: float) -> bool:
        return self.rng.random() < probability

    def person(self, female: bool | None = None, catalan: bool | None = None) -> Person:
        female = self.chance(0.5) if female is None else female
        catalan = self.catalan if catalan is None else catalan
        if catalan and self.chance(0.6):
            given = self.pick(CATALAN_WOMEN if female else CATALAN_MEN)
        else:
            given = accented(self.pick(self.sources.female if female else self.sources.male))
            if self.chance(0.4):
                given = given.split()[0]

        def surname() -> str:
            if self.chance(0.06):
                return self.pick(WORD_NAMES)
            if catalan and self.chance(0.5):
                return self.pick(CATALAN_SURNAMES)
            return accented(self.pick(self.sources.surnames))

        return Person(given, surname(), surname(), female)

    def name_form(self, person: Person, prose: bool = False) -> str:
        """The many ways a note writes a name (in running prose, only the forms prose uses)."""
        first_given = person.given.split()[0]
        if prose:
            return self.pick((person.full, f"{person.given} {person.first}", f"{first_given} {person.first}"))
        forms = (
            person.full,
            f"{person.given} {person.first}",
            f"{person.first} {person.second}, {person.given}",
            f"{person.first.upper()} {person.second.upper()}, {person.given.upper()}",
            f"{first_given[0]}. {person.first}",
            person.first,
        )
        return self.pick(forms)

    def age(self, low: int = 18, high: int = 95) -> int:
        return self.rng.randint(low, high)

    def date(self, back: int = 400) -> dt.date:
        return self.today - dt.timedelta(days=self.rng.randrange(back))

    def numeric_date(self, day: dt.date) -> str:
        form = self.rng.randrange(5)
        if form == 0:
            return f"{day.day:02d}/{day.month:02d}/{day.year}"
        if form == 1:
            return f"{day.day}/{day.month}/{day.year % 100:02d}"
        if form == 2:
            return f"{day.day:02d}-{day.month:02d}-{day.year}"
        if form == 3:
            return f"{day.day:02d}.{day.month:02d}.{day.year}"
        return f"{day.year}-{day.month:02d}-{day.day:02d}"

    def word_date(self, day: dt.date, catalan: bool, weekday: bool = False, year: bool = False) -> str:
        if catalan:
            month = MONTHS_CA[day.month - 1]
            text = f"{day.day} {'d' + chr(39) if month[0] in 'ao' else 'de '}{month}"
            text = f"{DAYS_CA[day.weekday()]} {text}" if weekday else text
            return f"{text} de {day.year}" if year else text
        text = f"{day.day} de {MONTHS_ES[day.month - 1]}"
        text = f"{DAYS_ES[day.weekday()]} {text}" if weekday else text
        return f"{text} de {day.year}" if year else text

    def phone(self, mobile: bool | None = None, prefix: bool | None = None) -> str:
        mobile = self.chance(0.6) if mobile is None else mobile
        first = self.pick(("6", "7")) if mobile else self.pick(("93", "91", "96", "97", "95", "98", "94"))
        digits = first + "".join(str(self.rng.randrange(10)) for _ in range(9 - len(first)))
        form = self.rng.randrange(4)
        if form == 1:
            digits = f"{digits[:3]} {digits[3:5]} {digits[5:7]} {digits[7:]}"
        elif form == 2:
            digits = f"{digits[:3]} {digits[3:6]} {digits[6:]}"
        elif form == 3 and not mobile:
            digits = f"{digits[:2]} {digits[2:5]} {digits[5:7]} {digits[7:]}"
        prefix = self.chance(0.2) if prefix is None else prefix
        return (self.pick(("+34 ", "+34", "0034 ")) + digits) if prefix else digits

    def digits(self, low: int, high: int) -> str:
        length = self.rng.randint(low, high)
        return str(self.rng.randint(1, 9)) + "".join(str(self.rng.randrange(10)) for _ in range(length - 1))

    def dni(self) -> str:
        """A DNI or NIE with its valid check letter."""
        letters = "TRWAGMYFPDXBNJZSQVHLCKE"
        if self.chance(0.25):
            lead, body = self.rng.randrange(3), self.rng.randrange(10_000_000)
            return f"{'XYZ'[lead]}{body:07d}{letters[(lead * 10_000_000 + body) % 23]}"
        number = self.rng.randrange(10_000_000, 99_999_999)
        letter = letters[number % 23]
        return self.pick((f"{number}{letter}", f"{number}-{letter}", f"{number:,}".replace(",", ".") + f"-{letter}"))

    def cip(self) -> str:
        letters = "".join(self.pick(tuple("ABCDEFGHIJKLMNOPRSTUVZ")) for _ in range(4))
        body, tail = self.digits(7, 7), f"{self.rng.randrange(100):02d}"
        check = str(self.rng.randrange(10))
        return self.pick(
            (f"{letters} {body} {tail} {check}", f"{letters}{body}{tail}{check}", f"{letters}{body}{tail}")
        )

    def nass(self) -> str:
        province, body, check = f"{self.rng.randint(1, 52):02d}", self.digits(8, 8), f"{self.rng.randrange(100):02d}"
        return self.pick((f"{province} {body} {check}", f"{province}{body}{check}", f"{province}/{body}/{check}"))

    def licence(self) -> str:
        province = f"{self.rng.randint(1, 52):02d}"
        return self.pick((province + self.digits(5, 7), f"{province}/{self.digits(5, 5)}", self.digits(6, 9)))

    def email(self, person: Person) -> str:
        user = self.pick(
            (
                f"{person.given.split()[0]}.{person.first}",
                f"{person.given[0]}{person.first}{self.rng.randrange(10, 99)}",
                f"{person.first}_{person.given.split()[0]}",
            )
        )
        user = user.lower().translate(str.maketrans("áéíóúàèòïüñç ", "aeiouaeoiunc_"))
        return f"{user}@{self.pick(('gmail.com', 'hotmail.com', 'yahoo.es', 'outlook.es', 'telefonica.net'))}"

    def town(self, catalan: bool | None = None) -> Town:
        catalan = self.catalan if catalan is None else catalan
        return self.pick(self.sources.catalan_towns if catalan else self.sources.towns)

    def hospital(self, catalan: bool | None = None) -> str:
        catalan = self.catalan if catalan is None else catalan
        return self.pick(self.sources.catalan_hospitals if catalan else self.sources.hospitals)

    def centre(self, catalan: bool | None = None) -> str:
        catalan = self.catalan if catalan is None else catalan
        place = self.pick(BARRIOS) if self.chance(0.5) else self.town(catalan).name
        if catalan:
            return self.pick((f"CAP {place}", f"CAP {self.pick(SAINTS.split('|'))}", f"CAP {place}"))
        return self.pick((f"CS {place}", f"Centro de Salud {place}", f"C.S. {place}", f"centro de salud {place}"))

    def street(self, catalan: bool | None = None, lower: bool = False) -> str:
        catalan = self.catalan if catalan is None else catalan
        types = self.sources.catalan_street_types if catalan else self.sources.street_types
        forms = self.pick(types) if types else ("calle",)
        full = forms[0]
        short = [f for f in forms[1:] if f.isalpha() and 2 <= len(f) <= 4]
        kind = self.pick((full, full.capitalize(), full.capitalize()))
        if short and self.chance(0.4):
            kind = self.pick(short).capitalize() + "."
        if full in ("calle", "carrer") and self.chance(0.4):
            kind = self.pick(("C/", "c/", "C/ "))
        names = CATALAN_STREET_NAMES if catalan else STREET_NAMES
        name = self.pick(names) if self.chance(0.7) else f"{'de ' if catalan else ''}{self.person().given.split()[0]}"
        number = str(self.rng.randint(1, 180))
        if catalan:
            floor = self.pick(("", ", 2n 1a", ", 1r", " 3r 2a", ", baixos", ", àtic 1a", ", 4t 3a", ", pral. 2a"))
        else:
            floor = self.pick(("", ", 2º B", " 2ºb", ", 3º izda.", ", bajo", ", 1º A", " 5ºD", ", 4º dcha."))
        separator = self.pick((" ", ", ", " nº ", ", n.º ")) if not catalan else self.pick((" ", ", ", ", núm. "))
        text = f"{kind}{'' if kind.endswith('/') else ' '}{name}{separator}{number}{floor}"
        return text.lower() if lower else text
