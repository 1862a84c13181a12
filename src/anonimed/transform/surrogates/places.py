"""Places: towns, provinces and postal codes that agree with each other, streets, countries and institutions.

Each original province (named, or read from the first two digits of a postal code) maps to one surrogate province
through a keyed choice, so ``Sevilla`` … ``41009`` becomes ``Zamora`` … ``49xxx`` everywhere.  A town that is not a
province capital becomes the capital of the surrogate of the first province the note names: no pip package ships
Spain's municipalities offline, and a capital always agrees with its province and postal code.
"""

from __future__ import annotations

import re
from functools import cache

from faker.providers.address.es_ES import Provider as SpainAddresses

from anonimed.transform.surrogates import pools
from anonimed.transform.surrogates.context import SurrogateContext
from anonimed.transform.surrogates.text import fold, match_case

# The INE province codes (the first two digits of every postal code), by Faker's province names, and the capitals
# whose name differs from the province's.  This is a public standard code table, like the DNI letters.
_INE_CODES = {
    "Álava": 1,
    "Albacete": 2,
    "Alicante": 3,
    "Almería": 4,
    "Ávila": 5,
    "Badajoz": 6,
    "Baleares": 7,
    "Barcelona": 8,
    "Burgos": 9,
    "Cáceres": 10,
    "Cádiz": 11,
    "Castellón": 12,
    "Ciudad Real": 13,
    "Córdoba": 14,
    "La Coruña": 15,
    "Cuenca": 16,
    "Girona": 17,
    "Granada": 18,
    "Guadalajara": 19,
    "Guipúzcoa": 20,
    "Huelva": 21,
    "Huesca": 22,
    "Jaén": 23,
    "León": 24,
    "Lleida": 25,
    "La Rioja": 26,
    "Lugo": 27,
    "Madrid": 28,
    "Málaga": 29,
    "Murcia": 30,
    "Navarra": 31,
    "Ourense": 32,
    "Asturias": 33,
    "Palencia": 34,
    "Las Palmas": 35,
    "Pontevedra": 36,
    "Salamanca": 37,
    "Santa Cruz de Tenerife": 38,
    "Cantabria": 39,
    "Segovia": 40,
    "Sevilla": 41,
    "Soria": 42,
    "Tarragona": 43,
    "Teruel": 44,
    "Toledo": 45,
    "Valencia": 46,
    "Valladolid": 47,
    "Vizcaya": 48,
    "Zamora": 49,
    "Zaragoza": 50,
    "Ceuta": 51,
    "Melilla": 52,
}
_CAPITALS = {
    "Álava": "Vitoria",
    "Baleares": "Palma",
    "Guipúzcoa": "San Sebastián",
    "La Rioja": "Logroño",
    "Navarra": "Pamplona",
    "Asturias": "Oviedo",
    "Las Palmas": "Las Palmas de Gran Canaria",
    "Cantabria": "Santander",
    "Vizcaya": "Bilbao",
    "Ciudad Real": "Ciudad Real",
    "La Coruña": "A Coruña",
    "Pontevedra": "Vigo",
}


@cache
def provinces() -> dict[int, tuple[str, str]]:
    """INE code -> (province, capital), for the provinces Faker lists (its "Ciudad" is Ciudad Real)."""
    names = {"Ciudad": "Ciudad Real"}
    table = {}
    for faker_name in SpainAddresses.states:
        name = names.get(faker_name, faker_name)
        table[_INE_CODES[name]] = (name, _CAPITALS.get(name, name))
    return table


@cache
def _province_by_place() -> dict[str, int]:
    return {fold(place): code for code, pair in provinces().items() for place in pair}


def surrogate_province(code: int, context: SurrogateContext) -> int:
    """The province that stands for province ``code`` (never itself)."""
    others = [c for c in provinces() if c != code]
    return context.random("province", str(code)).choice(others)


def home_province(context: SurrogateContext) -> int:
    """The surrogate of the first province the note names (by name or postal code): unknown towns go there."""
    cached = context.memo.get(("home-province",))
    if cached is None:
        code = None
        for span in context.document.spans:
            if span.label == "TERRITORIO":
                code = _province_of(context.document.span_text(span))
                if code is not None:
                    break
        home = surrogate_province(code, context) if code else context.random("home").choice(list(provinces()))
        cached = context.memo[("home-province",)] = str(home)
    return int(cached)


def _province_of(text: str) -> int | None:
    stripped = text.strip()
    if re.fullmatch(r"\d{5}", stripped) and int(stripped[:2]) in provinces():
        return int(stripped[:2])
    return _province_by_place().get(fold(stripped))


def territory(original: str, context: SurrogateContext) -> str:
    stripped = original.strip()
    rng = context.random("territory", fold(stripped))
    if re.fullmatch(r"\d{5}", stripped):
        code = int(stripped[:2])
        new_code = surrogate_province(code, context) if code in provinces() else home_province(context)
        return original.replace(stripped, f"{new_code:02d}{rng.randint(0, 999):03d}")
    if re.fullmatch(r"\d+", stripped):
        return original.replace(stripped, "".join(str(rng.randint(0, 9)) for _ in stripped))
    if fold(stripped) in {fold(r) for r in pools.regions()}:
        region = rng.choice([r for r in pools.regions() if fold(r) != fold(stripped)])
        return original.replace(stripped, match_case(stripped, region))
    place_code = _province_by_place().get(fold(stripped))
    if place_code is not None:
        province, capital = provinces()[surrogate_province(place_code, context)]
        is_province_name = fold(stripped) == fold(provinces()[place_code][0])
        return original.replace(stripped, match_case(stripped, province if is_province_name else capital))
    capital = provinces()[home_province(context)][1]
    if fold(capital) == fold(stripped):
        capital = provinces()[surrogate_province(home_province(context), context)][1]
    return original.replace(stripped, match_case(stripped, capital))


def country(original: str, context: SurrogateContext) -> str:
    stripped = original.strip()
    new = pools.countries().pick(context.random("country", fold(stripped)), avoid=stripped)
    return original.replace(stripped, match_case(stripped, new))


_STREET_TYPE = re.compile(
    r"^\s*(?:c/|c\.|cl\.?|calle|carrer|avda\.?|avd\.?|av\.?|avenida|avinguda|pza\.?|plaza|pl\.|plaça|p[ºo]\.?|"
    r"paseo|passeig|ctra\.?|carretera|camino|cami|ronda|trav\.?|traves[ií]a|rambla|v[ií]a|urb\.?|urbanizaci[oó]n|"
    r"glorieta|pasaje|passatge|barrio|bo\.)(?![^\W\d_])\s*",
    re.IGNORECASE,
)
_TAIL = re.compile(r"[,\s]*(?:\d|s/?n\b|n[º°o]\.?\s*\d)", re.IGNORECASE)


def street(original: str, context: SurrogateContext) -> str:
    """Street type as written (``C/``, ``Avda.``), a new name, and the number, floor and door with new figures."""
    rng = context.random("street", fold(original))
    kind = _STREET_TYPE.match(original)
    head = kind.group() if kind else ""
    rest = original[len(head) :]
    tail_match = _TAIL.search(rest)
    name, tail = (rest[: tail_match.start()], rest[tail_match.start() :]) if tail_match else (rest, "")
    new_name = _street_name(rng, catalan=context.catalan)
    if name.strip().isupper():
        new_name = new_name.upper()
    new_tail = re.sub(r"\d+", lambda m: str(rng.randint(1, 10 ** len(m.group()) - 1)), tail)
    new_tail = re.sub(r"(?<=\d)[A-Z]\b|(?<=\s)[A-F]\b", lambda m: rng.choice("ABCDEF"), new_tail)
    if not head and not name.strip():  # a bare number: keep its shape only
        return new_tail
    spacing = name[len(name.rstrip()) :] if tail else ""
    new = head + new_name + spacing + new_tail
    return new if fold(new) != fold(original) else new + " " + str(rng.randint(2, 99))


def _street_name(rng, catalan: bool) -> str:
    surname = pools.surnames().pick(rng)
    given = pools.given_names(rng.choice("FM"), catalan).pick(rng)
    return rng.choice((surname, f"{given} {surname}", f"Doctor {surname}", f"{given}", f"de {surname}"))


def _city_of_institution(original: str, context: SurrogateContext, rng) -> str:
    """The surrogate city of the place an institution's name mentions (``Hospital General de Alicante``), else a
    random one: it depends on the name only, so the institution keeps its surrogate across documents with a key."""
    words = fold(original)
    for place, code in _province_by_place().items():
        if re.search(rf"\b{re.escape(place)}\b", words):
            return provinces()[surrogate_province(code, context)][1]
    return provinces()[rng.choice(list(provinces()))][1]


def hospital(original: str, context: SurrogateContext) -> str:
    rng = context.random("hospital", fold(original))
    city = _city_of_institution(original, context, rng)
    saint = _saint(rng)
    forms = (
        f"Hospital Universitario {saint}",
        f"Hospital General de {city}",
        f"Hospital Clínico Universitario de {city}",
        f"Hospital {saint}",
        f"Complejo Hospitalario de {city}",
        f"Hospital Universitario de {city}",
        f"Hospital {pools.surnames().pick(rng)}",
    )
    return _styled(original, rng.choice(forms))


_CENTRE_PREFIX = re.compile(
    r"\s*(?:centro de salud|c\.?\s?s\.?|cap|centre d'atenci[oó] prim[aà]ria|consultorio)\s+", re.IGNORECASE
)


def health_centre(original: str, context: SurrogateContext) -> str:
    rng = context.random("centre", fold(original))
    prefix = _CENTRE_PREFIX.match(original)
    place = rng.choice((pools.surnames().pick(rng), _saint(rng), _city_of_institution(original, context, rng)))
    return _styled(original, (prefix.group().strip() if prefix else "Centro de Salud") + " " + place)


def institution(original: str, context: SurrogateContext) -> str:
    rng = context.random("institution", fold(original))
    city = _city_of_institution(original, context, rng)
    forms = (
        f"Universidad de {city}",
        f"Instituto de Medicina Legal de {city}",
        f"Fundación {pools.surnames().pick(rng)}",
        f"Residencia {_saint(rng)}",
        f"Colegio {_saint(rng)}",
        f"Ayuntamiento de {city}",
        f"Servicio de Salud de {rng.choice(pools.regions())}",
    )
    return _styled(original, rng.choice(forms))


def _saint(rng) -> str:
    gender = rng.choice("FM")
    name = pools.given_names(gender).pick(rng)
    return f"{'Santa' if gender == 'F' else 'San'} {name}"


def _styled(original: str, new: str) -> str:
    stripped = original.strip()
    if fold(new) == fold(stripped):
        new = new + " II"
    return original.replace(stripped, match_case(stripped, new)) if stripped else new
