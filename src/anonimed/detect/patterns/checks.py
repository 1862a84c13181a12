"""Check characters and range checks of the formats the recognizers find.

Each check takes the matched text and returns a factor for the recognizer's score: 1.0 when the text passes, 0.0 to
reject it, or something in between when a failure is expected anyway (the corpus' synthetic numbers).
"""

from __future__ import annotations

import ipaddress
import re

_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"
_NIE_PREFIX = {"X": "0", "Y": "1", "Z": "2"}
_NON_ALNUM = re.compile(r"[^0-9A-Za-z]")
_DIGITS = re.compile(r"\d+")


def dni_letter_ok(text: str) -> bool:
    """Whether a DNI (``12345678Z``) or NIE (``X1234567L``) has the mod-23 check letter of its number."""
    code = _NON_ALNUM.sub("", text).upper()
    if len(code) < 2 or not code[-1].isalpha():
        return False
    number = _NIE_PREFIX.get(code[0], code[0]) + code[1:-1]
    return number.isdecimal() and _DNI_LETTERS[int(number) % 23] == code[-1]


def dni(text: str) -> float:
    """A DNI/NIE without a letter passes (the key said what it is); with a letter, the letter must be right."""
    code = _NON_ALNUM.sub("", text)
    return 1.0 if code.isdigit() or dni_letter_ok(code) else 0.0


def nass_ok(text: str) -> bool:
    """Whether a 12-digit social-security number (province, number, control) has its mod-97 control digits.

    The control is ``(province * 10**8 + number) % 97``, or ``province * 10**7 + number`` for numbers below 10**7.
    """
    digits = "".join(_DIGITS.findall(text))
    if len(digits) != 12:
        return False
    province, number, control = int(digits[:2]), int(digits[2:10]), int(digits[10:])
    base = province * 10**7 + number if number < 10**7 else province * 10**8 + number
    return base % 97 == control


def nass(text: str) -> float:
    # The corpus' NASS are made up and mostly fail the control: keep them, with less confidence.
    return 1.0 if nass_ok(text) else 0.9


def nass_unkeyed(text: str) -> float:
    # Without a key, the control digits are the only evidence that this number is a NASS.
    return 1.0 if nass_ok(text) else 0.0


def ipv4(text: str) -> float:
    return 1.0 if all(int(part) <= 255 for part in text.split(".")) else 0.0


def ipv6(text: str) -> float:
    """A valid IPv6 address with at least two colons and a digit (``::`` alone and ``ab:cd`` are not)."""
    if text.count(":") < 2 or not any(c.isdigit() for c in text):
        return 0.0
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return 0.0
    return 1.0


def numeric_date(text: str) -> float:
    """Day and month in range for ``d/m/y`` or ``m/d/y`` (also with ``-`` and ``.``); a 2-digit or 4-digit year."""
    parts = _DIGITS.findall(text)
    if len(parts) != 3:
        return 0.0
    day, month, year = (int(part) for part in parts)
    if len(parts[2]) == 4 and not 1850 <= year <= 2099:
        return 0.0
    factor = 1.0 if "/" in text else 0.9
    if 0 <= day <= 31 and 1 <= month <= 12:
        return factor
    if 1 <= day <= 12 and 13 <= month <= 31:
        return factor * 0.9  # month first, the American way (``03/15/1996``)
    return 0.0


def postal_code(text: str) -> float:
    """Spanish postal codes begin with a province number, 01 to 52."""
    digits = "".join(_DIGITS.findall(text))
    return 1.0 if len(digits) == 5 and 1 <= int(digits[:2]) <= 52 else 0.0


# ISO 3779 transliteration of VIN characters (I, O and Q are never used) and the position weights of its check digit.
_VIN_VALUES = {
    **{str(d): d for d in range(10)},
    **dict(zip("ABCDEFGH", range(1, 9))),
    **dict(zip("JKLMN", range(1, 6))),
    "P": 7,
    "R": 9,
    **dict(zip("STUVWXYZ", range(2, 10))),
}
_VIN_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)


def vin(text: str) -> float:
    """A 17-character VIN; its 9th character is a check digit in North America only, so a match raises the score."""
    code = text.upper()
    if len(code) != 17 or any(c not in _VIN_VALUES for c in code):
        return 0.0
    if sum(c.isalpha() for c in code) < 2 or sum(c.isdigit() for c in code) < 5:
        return 0.0
    remainder = sum(_VIN_VALUES[c] * w for c, w in zip(code, _VIN_WEIGHTS)) % 11
    return 1.0 if code[8] == ("X" if remainder == 10 else str(remainder)) else 0.7
