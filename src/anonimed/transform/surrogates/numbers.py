"""Identifiers, numbers and addresses of the network: same layout as the original, valid check characters.

Every digit becomes a digit and every letter a letter of the same case, separators stay, groups that were equal stay
equal (a clinician's number ``28 28 57946`` repeats its province), and formats with a check character get a valid
one: DNI and NIE letters, the two control digits of a social-security number (NASS/NSS).
"""

from __future__ import annotations

import ipaddress
import random
import re
import string

from anonimed.transform.surrogates import pools
from anonimed.transform.surrogates.context import SurrogateContext
from anonimed.transform.surrogates.text import ascii_word, fold, match_case

DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"
_DNI = re.compile(r"(?P<number>\d{8})(?P<sep>[\s-]?)(?P<letter>[A-Za-z])")
_NIE = re.compile(r"(?P<prefix>[XYZxyz])(?P<sep1>[\s-]?)(?P<number>\d{7})(?P<sep2>[\s-]?)(?P<letter>[A-Za-z])")
_IPV4 = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
_MAC = re.compile(r"[0-9A-Fa-f]{2}(?:([:-])[0-9A-Fa-f]{2}){5}")
_PLATE_LETTERS = "BCDFGHJKLMNPRSTVWXYZ"  # Spanish plates use consonants only
FREE_MAIL = frozenset(
    {
        "gmail.com",
        "hotmail.com",
        "hotmail.es",
        "yahoo.es",
        "yahoo.com",
        "outlook.com",
        "outlook.es",
        "live.com",
        "msn.com",
        "telefonica.net",
        "icloud.com",
    }
)


def reshape(original: str, rng: random.Random, letters: str = string.ascii_uppercase) -> str:
    """Random digits and letters in the layout of ``original``; equal digit groups stay equal, no leading zero is
    invented or lost."""
    groups: dict[str, str] = {}

    def new_group(match: re.Match[str]) -> str:
        token = match.group()
        if token not in groups:
            groups[token] = "".join(_new_character(c, i, rng, letters) for i, c in enumerate(token))
        return groups[token]

    return re.sub(r"[0-9A-Za-z]+", new_group, original)


def _new_character(character: str, position: int, rng: random.Random, letters: str) -> str:
    if character.isdigit():
        if position == 0 and character != "0":
            return str(rng.randint(1, 9))
        return str(rng.randint(0, 9))
    if character.isascii() and character.isalpha():
        letter = rng.choice(letters)
        return letter if character.isupper() else letter.lower()
    return character


def identifier(original: str, label: str, context: SurrogateContext) -> str:
    rng = context.random("id", label, fold(original))
    stripped = original.strip()
    if label == "ID_ASEGURAMIENTO" and len(re.sub(r"\D", "", stripped)) == 12:
        return _with_nass_control(reshape(original, rng))
    if _DNI.fullmatch(stripped):
        return _with_dni_letter(reshape(original, rng))
    if _NIE.fullmatch(stripped):  # the X/Y/Z in front says which series, not who: it stays
        after_prefix = original.index(stripped) + 1
        return _with_dni_letter(original[:after_prefix] + reshape(original[after_prefix:], rng))
    if not re.search(r"\d", original) and label == "ID_SUJETO_ASISTENCIA":
        return descriptor(original, rng)
    if label == "ID_TITULACION_PERSONAL_SANITARIO" and re.match(r"\s*\d{2}\D", original):
        return _with_province_prefix(reshape(original, rng), rng)
    if label == "IDENTIF_VEHICULOS_NRSERIE_PLACAS":
        return reshape(original, rng, _PLATE_LETTERS)
    if label in ("IDENTIF_DISPOSITIVOS_NRSERIE", "DIREC_PROT_INTERNET") and (net := network_address(original, rng)):
        return net
    return reshape(original, rng)


# MEDDOCAN files under patient identifiers the words that single a patient out (ethnic group, life stage, marital
# status): a word of that kind stands for another.
_DESCRIPTORS = (
    "caucásica",
    "blanca",
    "hispana",
    "magrebí",
    "asiática",
    "mestiza",
    "lactante",
    "adolescente",
    "soltera",
    "casado",
    "viudo",
    "jubilado",
)


def descriptor(original: str, rng: random.Random) -> str:
    stripped = original.strip()
    choices = [d for d in _DESCRIPTORS if fold(d) != fold(stripped)]
    return original.replace(stripped, match_case(stripped, rng.choice(choices)))


def _with_province_prefix(text: str, rng: random.Random) -> str:
    """A clinician's registration number starts with the province of the college (``28 28 57946``: Madrid)."""
    first = re.match(r"\s*(\d{2})", text)
    if first is None:  # no province prefix to change
        return text
    code = f"{rng.randint(1, 52):02d}"
    return re.sub(rf"\b{first.group(1)}\b", code, text[: first.end() + 4], count=2) + text[first.end() + 4 :]


def _with_dni_letter(text: str) -> str:
    """A DNI (8 digits) or NIE (X/Y/Z and 7 digits) whose final letter is the one its number calls for."""
    nie = _NIE.search(text)
    if nie:
        return _replace_letter(text, nie, _nie_number(nie))
    dni = _DNI.search(text)
    return _replace_letter(text, dni, int(dni["number"])) if dni else text


def _nie_number(nie: re.Match[str]) -> int:
    """A NIE's number for the letter: its X, Y or Z read as 0, 1 or 2 in front of the seven digits."""
    return int(str("XYZ".index(nie["prefix"].upper())) + nie["number"])


def _replace_letter(text: str, match: re.Match[str], number: int) -> str:
    letter = DNI_LETTERS[number % 23]
    letter = letter if match["letter"].isupper() else letter.lower()
    return text[: match.start("letter")] + letter + text[match.end("letter") :]


def _with_nass_control(text: str) -> str:
    """A social-security number: a province code 01-52, eight digits, and control digits = first ten mod 97."""
    digits = re.sub(r"\D", "", text)
    province = f"{int(digits[:2]) % 52 + 1:02d}"
    body = province + digits[2:10]
    fixed = body + f"{int(body) % 97:02d}"
    characters = iter(fixed)
    return re.sub(r"\d", lambda _: next(characters), text)


def nass_is_valid(text: str) -> bool:
    digits = re.sub(r"\D", "", text)
    return len(digits) == 12 and int(digits[:10]) % 97 == int(digits[10:])


def dni_is_valid(text: str) -> bool:
    """Whether a DNI or NIE carries the right letter (the check used by the tests and the CLI audit)."""
    stripped = text.strip()
    nie = _NIE.fullmatch(stripped)
    if nie:
        return DNI_LETTERS[_nie_number(nie) % 23] == nie["letter"].upper()
    dni = _DNI.fullmatch(stripped)
    return dni is not None and DNI_LETTERS[int(dni["number"]) % 23] == dni["letter"].upper()


def looks_like_dni(text: str) -> bool:
    return bool(_DNI.fullmatch(text.strip()) or _NIE.fullmatch(text.strip()))


def phone(original: str, label: str, context: SurrogateContext) -> str:
    """A Spanish number laid out as the original: the country prefix and the first digit (6/7 mobile, 8/9 fixed)
    are kept, the rest is random."""
    rng = context.random("phone", fold(original))
    prefix = re.match(r"\s*(?:\+|00)?\s*34[\s.-]*(?=\d{9}|\d{2,3}[\s.-])", original)
    keep = prefix.end() if prefix else 0
    first = re.search(r"\d", original[keep:])
    keep = keep + first.end() if first else keep
    return original[:keep] + re.sub(r"\d", lambda _: str(rng.randint(0, 9)), original[keep:])


def network_address(original: str, rng: random.Random) -> str | None:
    """A random address of the same kind for an IPv4, IPv6 or MAC address; None for anything else."""
    stripped = original.strip()
    if _MAC.fullmatch(stripped):
        return reshape(original, rng, "ABCDEF")
    try:
        address = ipaddress.ip_address(stripped)
    except ValueError:
        return None
    if address.version == 4:
        first = stripped.split(".")[0] if address.is_private else str(rng.randint(11, 223))
        new = ".".join([first] + [str(rng.randint(1, 254)) for _ in range(3)])
    else:
        new = str(ipaddress.IPv6Address(rng.getrandbits(128)))
    return original.replace(stripped, new)


def email(original: str, context: SurrogateContext) -> str:
    """An address built from the surrogate of the person named last (the referring doctor), laid out as the original
    (``nombre.apellido``, ``napellido``), on a generated domain unless the original uses a webmail domain."""
    rng = context.random("email", fold(original))
    local, _, domain = original.strip().rpartition("@")
    person = context.latest_person()
    given = ascii_word(person.given[0]) if person and person.given else ascii_word(pools.given_names("F").pick(rng))
    surnames = (
        [ascii_word(s) for s in person.surnames]
        if person and person.surnames
        else [ascii_word(pools.surnames().pick(rng))]
    )
    separator = next((c for c in local if c in "._-"), "")
    if separator:
        new_local = f"{given}{separator}{surnames[0]}"
    elif len(surnames) > 1 and len(local) > len(given) + len(surnames[0]):
        new_local = f"{given[0]}{surnames[0]}{surnames[1][0]}"
    else:
        new_local = f"{given[0]}{surnames[0]}"
    digits = re.search(r"\d+$", local)
    if digits:
        new_local += "".join(str(rng.randint(0, 9)) for _ in digits.group())
    new_domain = domain if domain.lower() in FREE_MAIL else _domain(domain, rng)
    new = f"{new_local}@{new_domain}"
    if new.lower() == original.strip().lower():
        new = f"{new_local}{rng.randint(1, 99)}@{new_domain}"
    return original.replace(original.strip(), new)


def _domain(original: str, rng: random.Random) -> str:
    top = original.rsplit(".", 1)[-1] if "." in original else "es"
    return f"{ascii_word(pools.surnames().pick(rng))}{rng.choice(('', 'salud', 'med', 'clinic'))}.{top.lower()}"


def url(original: str, context: SurrogateContext) -> str:
    """A web address with the original's scheme and ``www.`` prefix, on a generated domain."""
    rng = context.random("url", fold(original))
    match = re.match(r"(?P<scheme>[a-z]+://)?(?P<www>www\d?\.)?(?P<host>[^/\s]+)(?P<path>\S*)", original.strip(), re.I)
    if match is None:
        return reshape(original, rng)
    host = _domain(match["host"], rng)
    path = "/" + ascii_word(pools.surnames().pick(rng)) if len(match["path"]) > 1 else match["path"]
    return original.replace(original.strip(), f"{match['scheme'] or ''}{match['www'] or ''}{host}{path}")
