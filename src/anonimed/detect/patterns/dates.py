"""Dates in every written form of Spanish and Catalan notes, following the MEDDOCAN rules for FECHAS.

What is a date: numeric dates, day-month-year in words, months and years alone, weekdays before a date, seasons of
a year, decades (``90s``) and festivities.  What is not: the time of day (``a las 14:41``), the words that introduce
the date (``el pasado``, ``en``).
"""

from __future__ import annotations

import re

from anonimed.detect.patterns import checks
from anonimed.detect.patterns.recognizer import DIGITS, Recognizer, first_digit, keyed

_MONTHS = tuple(
    (
        # Spanish, then Catalan (``abril`` and ``octubre`` are both); longest first so that ``junio`` wins over ``juny``.
        "enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre "
        "gener febrer març abril maig juny juliol agost setembre octubre novembre desembre"
    ).split()
)
MONTH = "(?:" + "|".join(sorted(set(_MONTHS), key=len, reverse=True)) + ")"
_WEEKDAYS = (
    "lunes martes miércoles miercoles jueves viernes sábado sabado domingo "
    "dilluns dimarts dimecres dijous divendres dissabte diumenge"
).split()
WEEKDAY = "(?:" + "|".join(_WEEKDAYS) + ")"
_MONTH_ABBREVIATIONS = (
    "ene",
    "feb",
    "mar",
    "abr",
    "may",
    "jun",
    "jul",
    "ago",
    "sept",
    "sep",
    "set",
    "oct",
    "nov",
    "dic",
)
_MONTH_ABBREVIATION = "(?:" + "|".join(_MONTH_ABBREVIATIONS) + ")"
_ROMAN_MONTH = r"(?:XII|XI|X|IX|VIII|VII|VI|V|IV|III|II|I)"
DAY = r"(?:[12]\d|3[01]|0?[1-9])"
# A four-digit year, also written with a thousands dot (``2.003``).
YEAR = r"(?:1[89]\d{2}|20\d{2}|1\.[89]\d{2}|2\.0\d{2})"
_YEAR_WORD = r"(?:año|any)"
# What follows a number that is a quantity, not a year (``de 2000 mg``, ``1.500 plaquetas``).
_NOT_A_YEAR_AFTER = (
    r"(?![\w/]|[.,-]\d|[ \t]*(?:%|(?i:mg|mcg|µg|g|gr|kg|ml|dl|l|cc|ui|u|mm|cm|m|ng|pg|mEq|mmol|células|copias"
    r"|plaquetas|hematíes|leucocitos|pacientes|casos|gramos|kcal|kilocalor\w*|micromol\w*)\b))"
)
_FIRST_DIGIT = first_digit(r"[\w/.,-]")
_YEAR_PART = rf"[ \t]*(?:,|del?|-|/)?[ \t]*(?:{_YEAR_WORD}[ \t]+)?(?:{YEAR}|(?<=[ -])0\d|'\d{{2}}){_NOT_A_YEAR_AFTER}"
_ISOLATED_END = r"(?![\w/]|[.,-]?\d)"


def _year_score(text: str) -> float:
    return 0.8 if "." in text else 1.0


RECOGNIZERS = (
    Recognizer(
        "numeric_date",
        "FECHAS",
        # ``03/03/1946``, ``3-3-46``, ``12/04 /2011``; the second separator may be doubled by a typo (``20/11//2014``).
        re.compile(
            rf"{_FIRST_DIGIT}\d?[ \t]?([/.-])[ \t]?\d{{1,3}}[ \t]?\1{{1,2}}[ \t]?(?:\d{{4}}|\d{{2}}){_ISOLATED_END}"
        ),
        0.97,
        triggers=DIGITS,
        check=checks.numeric_date,
    ),
    Recognizer(
        "roman_month_date",
        "FECHAS",
        re.compile(rf"{_FIRST_DIGIT}\d?([-/.]){_ROMAN_MONTH}\1(?:\d{{4}}|\d{{2}}){_ISOLATED_END}"),
        0.95,
        triggers=DIGITS,
    ),
    Recognizer(
        "month_year",
        "FECHAS",
        re.compile(rf"{_FIRST_DIGIT}(?:(?<=0)[1-9]|(?<=1)[0-2]?|(?<=[2-9]))[/-](?:19\d|20[0-3])\d{_ISOLATED_END}"),
        0.8,
        triggers=("/", "-"),
    ),
    Recognizer(
        "written_date",
        "FECHAS",
        # ``jueves 2 de Agosto``, ``3 de marzo de 1946``, ``23-octubre-1972``, ``15 d'octubre``, ``marzo de 2015``,
        # ``Junio 04`` (two-digit years from 00 to 09 only: ``Abril 18`` is a street number), ``marzo '98``,
        # ``enero del año 2001``, ``febrero y abril de 2002`` (one date); not the hospital ``12 de Octubre``.
        re.compile(
            rf"(?<!Universitario )(?<!Hospital )(?<!Universitario \")"
            rf"(?i:\b(?:{WEEKDAY}[ \t]*,?[ \t]+)?"
            rf"(?:{DAY}[ \t]*(?:de[ \t]+|d['’]|[-/])?[ \t]*{MONTH}\b(?:{_YEAR_PART})?|"
            rf"{MONTH}[ \t]+[yeoa][ \t]+{MONTH}\b{_YEAR_PART}|{MONTH}\b{_YEAR_PART}))"
        ),
        0.95,
        triggers=_MONTHS,
    ),
    Recognizer(
        "abbreviated_month_year",
        "FECHAS",
        # ``sep-04``, ``dic/2010``, ``Ene'98``: a month's abbreviation joined to a year; ``dic 2024``, ``3 NOV 2025``
        # (a year of four digits after a space, and the day before).
        re.compile(
            rf"(?i:\b(?:{DAY}[ \t]+(?={_MONTH_ABBREVIATION}\.?[ \t]))?{_MONTH_ABBREVIATION}"
            rf"(?:[-/'’][ \t]?(?:(?:19|20)\d{{2}}|\d{{2}})|\.?[ \t]+(?:19|20)\d{{2}}))"
            rf"{_ISOLATED_END}"
        ),
        0.85,
        triggers=_MONTH_ABBREVIATIONS,
    ),
    Recognizer(
        "day_abbreviated_month",
        "FECHAS",
        # ``lunes 2-jun``, ``8-abr``, ``15/sep/2024``: a day joined to a month's abbreviation by a hyphen or a slash.
        re.compile(
            rf"(?i:\b(?:{WEEKDAY}[ \t]+)?{DAY}[-/]{_MONTH_ABBREVIATION}\b(?:[-/](?:(?:19|20)\d{{2}}|\d{{2}}))?)"
            rf"{_ISOLATED_END}"
        ),
        0.9,
        triggers=_MONTH_ABBREVIATIONS,
    ),
    Recognizer(
        "month_name",
        "FECHAS",
        # A month alone (``en marzo``, ``a finales de junio``) after a preposition: a capitalised month elsewhere is
        # as often a name (``Julio``, ``Calle Pintor Abril``).
        re.compile(rf"(?i:\b(?:en|de|desde|hasta|durante|entre|y|a))[ \t]+(?P<value>(?i:{MONTH}))\b"),
        0.35,
        triggers=_MONTHS,
    ),
    Recognizer(
        "season_year",
        "FECHAS",
        re.compile(
            rf"(?i:\b(?:primavera|verano|otoño|invierno|estiu|tardor|hivern)[ \t]+(?:del?[ \t]+|d['’])?"
            rf"(?:{_YEAR_WORD}[ \t]+)?{YEAR}\b)"
        ),
        0.9,
        triggers=("primavera", "verano", "otoño", "invierno", "estiu", "tardor", "hivern"),
    ),
    Recognizer(
        "year",
        "FECHAS",
        # A year after a preposition or ``año``: ``en 2014``, ``desde 1980 a 1983``, ``a principios del año 2004``.
        re.compile(
            rf"(?i:\b(?:en|desde|hasta|del?|a|al|el|y|e|entre|hacia|durante|por|o))[ \t]+"
            rf"(?P<value>(?i:{_YEAR_WORD}[ \t]+)?{YEAR}){_NOT_A_YEAR_AFTER}"
        ),
        0.85,
        triggers=DIGITS,
        check=_year_score,
    ),
    Recognizer(
        "year_keyed",
        "FECHAS",
        re.compile(keyed(r"fecha(?:[ \t]+de[ \t]+[a-záéíóúñ]+)?", YEAR)),
        0.9,
        triggers=("fecha",),
    ),
    Recognizer(
        "year_cited",
        "FECHAS",
        # The year of a cited work: ``(1964)``, ``Jégaden et al. 1993``.
        re.compile(r"(?:\(|\bet[ \t]+al\.?,?)[ \t]*(?P<value>(?:1[89]|20)\d{2})(?=[ \t]*[);,])"),
        0.7,
        triggers=DIGITS,
    ),
    Recognizer(
        "decade",
        "FECHAS",
        re.compile(first_digit(r"[\w']") + r"(?:(?<=1)9[2-9]|(?<=[2-9]))0'?s\b"),
        0.85,
        triggers=("0s", "0's"),
    ),
    Recognizer(
        "festivity",
        "FECHAS",
        re.compile(
            r"(?i:\b(?:navidad(?:es)?|nochebuena|nochevieja|semana[ \t]+santa|halloween|año[ \t]+nuevo|"
            r"d[ií]a[ \t]+de[ \t]+(?:reyes|la[ \t]+madre|el[ \t]+padre|todos[ \t]+los[ \t]+santos|san[ \t]+valent[ií]n))\b)"
        ),
        0.7,
        triggers=("navidad", "noche", "santa", "halloween", "nuevo", "día de", "dia de"),
    ),
)
