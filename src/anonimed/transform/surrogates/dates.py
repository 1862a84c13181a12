"""Date and age surrogates: dates shifted by the patient's offset, written back in the original's own format; ages
kept (90+ generalised).

The date text itself (layouts, parsing, shifting by a number of days) is in
:mod:`anonimed.transform.surrogates.datetext`; its public names are re-exported here.
"""

from __future__ import annotations

import re

from anonimed.transform.surrogates.context import SurrogateContext
from anonimed.transform.surrogates.datetext import MONTHS, parse_date, shift_dates_by, shift_weekdays

__all__ = ["MONTHS", "generalise_age", "parse_date", "shift_dates", "shift_dates_by", "shift_weekdays"]


def shift_dates(original: str, context: SurrogateContext) -> str | None:
    """``original`` with every date in it moved by the document's offset, or None when no date is recognised; a
    weekday never becomes another weekday that the note names."""
    return shift_dates_by(original, context.date_offset, "ca" if context.catalan else "es", context.mention_words)


def generalise_age(original: str, context: SurrogateContext) -> str:
    """Ages are kept; an age of 90 years or more becomes ``90 o más`` (HIPAA: ages over 89 are aggregated)."""
    match = re.search(r"\d+", original)
    if match is None or int(match.group()) < 90:
        return original
    after = original[match.end() :].strip().lower()
    if after and not after.startswith(("a", "añ")):  # 95 días, 92 meses: not a number of years
        return original
    more = "o més" if context.catalan else "o más"
    rest = original[match.end() :]
    gap = " " if rest[:1].isalpha() else ""  # a unit glued to the number (92a) is not glued to the words (90 o más a)
    return f"{original[: match.start()]}90 {more.upper() if original.isupper() else more}{gap}{rest}"
