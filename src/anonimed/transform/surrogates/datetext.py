"""Dates inside text, without any document: find them, read them and move them by a number of days in their own format.

A date is found with one of a few Spanish/Catalan layouts (``03/03/1946``, ``3 de marzo de 1946``, ``marzo de 2015``,
``2.003``, ``17-12-09``, ``d'abril``); only its parts (day, month, year) are rewritten, so separators, zero padding,
two-digit years, month spelling, abbreviation and case stay as they were.  Partial dates are shifted from a point
inside the period they name (the 15th of a month, the 2nd of July of a year), so the whole document moves together.
A weekday's name, alone (``el lunes``), in a list (``dilluns, dimecres i divendres``) or beside its date or its day
(``Dimarts 4``), moves by the same number of days, in its own language, number and case.

Apart from :mod:`anonimed.transform.surrogates.dates` (the surrogate generators, which need a
:class:`~anonimed.transform.surrogates.context.SurrogateContext`) because the context itself shifts dates when it
draws a document's offset: both build on this module, and it on neither.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection

from anonimed.transform.surrogates.text import fold, match_case

MONTHS = {
    "es": (
        "enero",
        "febrero",
        "marzo",
        "abril",
        "mayo",
        "junio",
        "julio",
        "agosto",
        "septiembre",
        "octubre",
        "noviembre",
        "diciembre",
    ),
    "ca": (
        "gener",
        "febrer",
        "març",
        "abril",
        "maig",
        "juny",
        "juliol",
        "agost",
        "setembre",
        "octubre",
        "novembre",
        "desembre",
    ),
}
# Monday first, as datetime.date.weekday() counts; the plural where it differs (los sábados, els dissabtes).
# Galician first, so that the names it shares with Spanish (martes, sábado, domingo) read as Spanish.
WEEKDAYS = {
    "gl": ("luns", "martes", "mércores", "xoves", "venres", "sábado", "domingo"),
    "es": ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"),
    "ca": ("dilluns", "dimarts", "dimecres", "dijous", "divendres", "dissabte", "diumenge"),
}
_PLURAL = {"sábado": "sábados", "domingo": "domingos", "dissabte": "dissabtes", "diumenge": "diumenges"}
# Each form of a weekday's name (singular, plural), written and without accents: its language, index and number.
_WEEKDAY_FORMS = {
    form: (language, index, form != name)
    for language, names in WEEKDAYS.items()
    for index, name in enumerate(names)
    for form in (name, _PLURAL.get(name, name))
}
_WEEKDAY_INDEX = {fold(form): about for form, about in _WEEKDAY_FORMS.items()}
_WEEKDAY_NAMES = "|".join(sorted(set(_WEEKDAY_FORMS) | set(_WEEKDAY_INDEX), key=len, reverse=True))
_WEEKDAY = re.compile(rf"\b(?:{_WEEKDAY_NAMES})\b", re.IGNORECASE)
_MONTH_NAMES = sorted({m for names in MONTHS.values() for m in names} | {"setiembre"}, key=len, reverse=True)
_ABBREVIATIONS = sorted({m[:3] for names in MONTHS.values() for m in names})
_MONTH = rf"(?P<month_name>(?:{'|'.join(_MONTH_NAMES)})|(?:{'|'.join(_ABBREVIATIONS)})\.?)"
_MONTH_WORD = rf"(?:{'|'.join(_MONTH_NAMES)}|{'|'.join(_ABBREVIATIONS)})\b"
_YEAR = r"(?P<year>\d\.\d{3}|\d{4}|'?\d{2})"
_JOIN = r"(?P<join>\s+de\s+|\s+del\s+|\s+d'|\s+|\s*,\s*|\s*-\s*|/)"
_LAYOUTS = (
    rf"(?P<day>\d{{1,2}})(?P<sep>[/.\-])(?P<month>\d{{1,2}})(?P=sep){_YEAR}",
    r"(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})",
    rf"(?P<day>\d{{1,2}})(?P<pre>\s+de\s+|\s+d'|\s*-\s*|/|\s+){_MONTH}(?:{_JOIN}{_YEAR})?",
    rf"(?P<pre>d')?{_MONTH}{_JOIN}{_YEAR}",
    r"(?P<month>\d{1,2})[/.\-](?P<year>\d{4})",
    # A day and its month without a year (12/08, lunes 8/7), as primary care notes write the day of a visit.
    r"(?P<day>\d{1,2})(?P<sep>[/.\-])(?P<month>\d{1,2})(?![/.\-]?\d)",
    rf"(?P<pre>d')?{_MONTH}",
    r"(?P<year>\d\.\d{3}|(?:1[89]|20)\d{2})",
    # A weekday and its day of the month alone (Dimarts 4, Domingo 9): the day moves as in any month would.
    rf"(?:{_WEEKDAY_NAMES})\s+(?P<day>\d{{1,2}})(?![/.\-]?\d)(?!\s+(?:de\s+|d'|del\s+)?{_MONTH_WORD})",
)
_PATTERNS = tuple(re.compile(rf"\b{layout}\b", re.IGNORECASE) for layout in _LAYOUTS)


def shift_dates_by(original: str, offset: int, language: str, avoid: Collection[str] = ()) -> str | None:
    """``original`` with every date in it moved by ``offset`` days, or None when no date is recognised.  A weekday,
    alone or beside its date, moves with it (``dilluns, dimecres i divendres`` three days on: ``dijous, dissabte i
    dilluns``): whatever the year, a date ``offset`` days later falls that many weekdays later (see
    :func:`shift_weekdays` for ``avoid``)."""
    dates = _shift_date_layouts(original, offset, language)
    if dates is None and re.search(r"\d", original):
        return None  # a day without its month (divendres 7) cannot be placed: the caller changes its digits
    weekdays = shift_weekdays(dates or original, offset, avoid)
    return weekdays if dates is not None or weekdays != original else None


def shift_weekdays(text: str, offset: int, avoid: Collection[str] = ()) -> str:
    """``text`` with each weekday's name moved ``offset`` days on, in its language, number, case and accents; one that
    would then read as a name in ``avoid`` (folded: the note's other mentions) moves on to the next day that does not,
    as a note that names four weekdays or more leaves no shift that misses them all."""

    def moved(match: re.Match[str]) -> str:
        original = match.group()
        language, index, plural = _WEEKDAY_INDEX[fold(original)]
        for step in range(7):
            name = WEEKDAYS[language][(index + offset + step) % 7]
            name = _PLURAL.get(name, name) if plural else name
            if fold(name) not in avoid:
                break
        written = WEEKDAYS[language][index]
        if original.isascii() and not written.isascii():  # a note that drops accents (miercoles) keeps dropping them
            name = fold(name)
        return match_case(original, name)

    return _WEEKDAY.sub(moved, text)


def _shift_date_layouts(original: str, offset: int, language: str) -> str | None:
    pieces, cursor, found = [], 0, False
    while cursor < len(original):
        match = _next_date(original, cursor)
        if match is None:
            break
        rewritten = _shift_one(match, offset, language)
        if rewritten is None:
            break
        pieces.append(original[cursor : match.start()])
        pieces.append(rewritten)
        cursor, found = match.end(), True
    pieces.append(original[cursor:])
    return "".join(pieces) if found else None


def parse_date(text: str) -> dt.date | None:
    """The full calendar date that ``text`` is, if it names a day, a month and a year (for checks and tests)."""
    match = next((m for p in _PATTERNS[:3] if (m := p.fullmatch(text.strip()))), None)
    if match is None or match.groupdict().get("year") is None:
        return None
    parts = _parts(match)
    if parts is None:
        return None
    try:
        return dt.date(parts["year"], parts["month"], parts["day"])
    except ValueError:
        return None


def _next_date(text: str, start: int) -> re.Match[str] | None:
    """The earliest date at or after ``start``; at one position the most specific layout wins."""
    best = None
    for pattern in _PATTERNS:
        match = pattern.search(text, start)
        if match and (best is None or match.start() < best.start()):
            best = match
    return best


def _month_index(name: str) -> int | None:
    key = name.lower().rstrip(".")
    if key == "setiembre":
        return 9
    for names in MONTHS.values():
        for number, month in enumerate(names, start=1):
            if key == month or (len(key) == 3 and month.startswith(key)):
                return number
    return None


def _year_value(raw: str) -> int:
    digits = raw.replace(".", "").lstrip("'")
    year = int(digits)
    if len(digits) == 2:  # two-digit years: this century if not in the future, else the last one
        year += 2000 if year <= dt.date.today().year % 100 else 1900
    return year


def _parts(match: re.Match[str]) -> dict[str, int] | None:
    groups = match.groupdict()
    parts = {}
    if groups.get("day"):
        parts["day"] = int(groups["day"])
    if groups.get("month"):
        parts["month"] = int(groups["month"])
    elif groups.get("month_name"):
        month = _month_index(groups["month_name"])
        if month is None:
            return None
        parts["month"] = month
    if groups.get("year"):
        parts["year"] = _year_value(groups["year"])
    if not 1 <= parts.get("month", 1) <= 12 or not 1 <= parts.get("day", 1) <= 31:
        return None
    return parts


def _shift_one(match: re.Match[str], offset: int, language: str) -> str | None:
    parts = _parts(match)
    if parts is None:
        return None
    # A day and month without a year are placed in a leap year so that 29 February exists.
    anchor_year = parts.get("year", 2000)
    try:
        anchor = dt.date(anchor_year, parts.get("month", 7), parts.get("day", 15 if "month" in parts else 2))
    except ValueError:
        return None
    moved = anchor + dt.timedelta(days=offset)
    return _render(match, moved, language)


def _render(match: re.Match[str], date: dt.date, language: str) -> str:
    groups = match.groupdict()
    replacements = {}
    if groups.get("day"):
        # "17/03/2013" pads its days ("05/03/2013"); "20 de marzo" does not ("5 de marzo"), "05 de marzo" does.
        numeric = bool(groups.get("month"))
        replacements["day"] = _pad(date.day, groups["day"]) if numeric else _pad_if_zero(date.day, groups["day"])
    if groups.get("month"):
        replacements["month"] = _pad(date.month, groups["month"])
    if groups.get("month_name"):
        replacements["month_name"] = _month_name(date.month, groups["month_name"], language)
    if groups.get("year"):
        replacements["year"] = _year_text(date.year, groups["year"])
    if (groups.get("pre") or "").lower() == "d'":  # only Catalan elides "de" before a month
        language = "ca"
    if groups.get("pre") is not None and groups.get("month_name") and language == "ca":
        replacements["pre"] = _elided(groups["pre"], replacements["month_name"])
    text, cursor, pieces = match.string, match.start(), []
    for name in sorted(replacements, key=lambda n: match.start(n)):
        pieces.append(text[cursor : match.start(name)])
        pieces.append(replacements[name])
        cursor = match.end(name)
    pieces.append(text[cursor : match.end()])
    return "".join(pieces)


def _pad(value: int, original: str) -> str:
    return f"{value:02d}" if len(original) == 2 else str(value)


def _pad_if_zero(value: int, original: str) -> str:
    return f"{value:02d}" if original.startswith("0") else str(value)


def _year_text(year: int, original: str) -> str:
    if "." in original:
        return f"{year // 1000}.{year % 1000:03d}"
    digits = original.lstrip("'")
    prefix = original[: len(original) - len(digits)]
    return prefix + (f"{year % 100:02d}" if len(digits) == 2 else str(year))


def _month_name(month: int, original: str, language: str) -> str:
    bare = original.rstrip(".")
    if _month_index(bare) is not None and bare.lower() in MONTHS["ca"] and bare.lower() not in MONTHS["es"]:
        language = "ca"
    name = MONTHS[language][month - 1]
    if len(bare) == 3:
        name = name[:3]
    return match_case(bare, name) + original[len(bare) :]


def _elided(preposition: str, month_name: str) -> str:
    """Catalan ``de`` before a month becomes ``d'`` before a vowel and back (``de març`` / ``d'abril``)."""
    vowel = month_name[:1].lower() in "aeiouàèéíòóú"
    bare = preposition.rstrip()
    if bare.lower().endswith("d'") and not vowel:
        return bare[:-2] + "de "
    if bare.lower().endswith("de") and vowel:
        return bare[:-2] + "d'"
    return preposition
