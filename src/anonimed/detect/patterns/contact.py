"""Contact details: e-mail, web and protocol addresses, telephone and fax numbers."""

from __future__ import annotations

import re

from anonimed.detect.patterns.recognizer import DIGITS, Recognizer, keyed

# What may end an address: anything but the punctuation that usually follows one in running text.
_URL_TAIL = r"(?:/[^\s<>\"']*[^\s<>\"'.,;:!?)\]])?"
_TLD_NAMES = ("com", "es", "org", "net", "cat", "eus", "gal", "eu", "info", "edu", "gov", "int", "biz")
_TLD = "(?:" + "|".join(_TLD_NAMES) + ")"

# One telephone number: an optional area code in brackets, then 6 to 11 digits grouped by spaces, dots or dashes
# (``630 304 365``, ``91 123 45 67``, the pager ``6527- 3368``) and an optional extension.
PHONE = r"(?:\(\d{2,4}\)[ .-]?)?\d(?:[ .-]{0,2}\d){5,10}(?:[ ]?ext\.?[ ]?\d{1,5})?"
_PHONE_LIST = rf"{PHONE}(?:[ \t]*(?:/|-|,|;|\by\b|\bo\b)[ \t]*\+?{PHONE})*"
_PHONE_ITEM = re.compile(PHONE)
# A key may end with a dot and a colon (``Tel.:``); a ``+`` before the number is not part of it.
_PHONE_GAP = r"[ \t]*\.?[ \t]*[:-]?[ \t]*(?:\+[ \t]*)?"
_PHONE_KEYS = (
    r"(?:tel[eéè]fonos?|m[oó]vil)(?:[ \t]+(?:fijo|m[oó]vil|de[ \t]+contacto))?"
    r"|tel[eé]fs?|telfs?|tfnos?|tlfnos?|tlfs?|tel|celular|buscapersonas|busca"
    r"|tel\.?[ \t]+y[ \t]+fax"  # ``Tel. y Fax:`` is one number for both: the guidelines call it a telephone
)

RECOGNIZERS = (
    Recognizer(
        "email",
        "CORREO_ELECTRONICO",
        # A key glued to the address (``E-mail.ana@...``) is not part of it.
        re.compile(r"(?<![\w.+-])(?:(?i:e-?mail)[.:-])?(?P<value>[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,})\b"),
        0.99,
        triggers=("@",),
    ),
    Recognizer(
        "protocol_address",
        "DIREC_PROT_INTERNET",
        re.compile(r"(?i:\b(?:https?|s?ftps?|smtp|tcp|telnet|ssh)://)[^\s<>\"']*[^\s<>\"'.,;:!?)\]]"),
        0.98,
        triggers=("://",),
    ),
    Recognizer(
        "web_address",
        "URL_WEB",
        re.compile(rf"(?<![\w@/.-])(?i:www\d?)\.[\w-]+(?:\.[\w-]+)+{_URL_TAIL}"),
        0.97,
        triggers=("www",),
    ),
    Recognizer(
        "web_domain",
        "URL_WEB",
        re.compile(rf"(?<![\w@/.-])[a-z][\w-]*(?:\.[\w-]+)*\.{_TLD}\b(?![@-]){_URL_TAIL}"),
        0.6,
        triggers=tuple(f".{tld}" for tld in _TLD_NAMES),
    ),
    Recognizer(
        "phone_keyed",
        "NUMERO_TELEFONO",
        re.compile(keyed(_PHONE_KEYS, _PHONE_LIST, _PHONE_GAP)),
        0.95,
        triggers=("tel", "tf", "tl", "móvil", "movil", "celular", "busca"),
        split=_PHONE_ITEM,
    ),
    Recognizer(
        "fax_keyed",
        "NUMERO_FAX",
        # Not ``Tel. y Fax``: that number is a telephone (see above).
        re.compile(r"(?<![Yy] )" + keyed("fax", _PHONE_LIST, _PHONE_GAP)),
        0.95,
        triggers=("fax",),
        split=_PHONE_ITEM,
    ),
    Recognizer(
        "phone_spanish",
        "NUMERO_TELEFONO",
        # Nine digits from 6 to 9 (mobiles and landlines), with an optional 34 country code; nothing glued around.
        re.compile(r"(?<![\w/.,-])(?P<value>(?:34[ .-]?)?[6789]\d(?:[ .-]?\d){7})(?![\w/]|[.,-]?\d)"),
        0.7,
        triggers=DIGITS,
    ),
)
