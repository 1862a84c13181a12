"""Facts about the patient: profession, sex, relatives and other identifying details."""

from __future__ import annotations

import re
from collections.abc import Callable

from faker.providers.company.es_ES import Provider as SpainCompanies

from anonimed.text.gender import feminine_title, is_feminine_head
from anonimed.transform.surrogates import pools
from anonimed.transform.surrogates.context import SurrogateContext
from anonimed.transform.surrogates.numbers import reshape
from anonimed.transform.surrogates.text import fold, match_case

# Each sex word and its counterpart, for the "swap" option (folded keys; replacements keep the original's case).
_OTHER_SEX = {
    "mujer": "hombre",
    "hombre": "mujer",
    "varon": "mujer",
    "femenino": "masculino",
    "masculino": "femenino",
    "femenina": "masculina",
    "masculina": "femenina",
    "nina": "niño",
    "nino": "niña",
    "hembra": "varón",
    "f": "M",
    "m": "F",
    "h": "M",
    "dona": "home",
    "home": "dona",
    "noia": "noi",
    "noi": "noia",
}

# A relative becomes another relative of the same sex and number: the surrogate must differ, and a kinship term
# alone does not identify anyone.
_KIN = {
    "padre": "abuelo",
    "abuelo": "tío",
    "tio": "padre",
    "madre": "abuela",
    "abuela": "tía",
    "tia": "madre",
    "hermano": "primo",
    "primo": "hermano",
    "hermana": "prima",
    "prima": "hermana",
    "hijo": "sobrino",
    "sobrino": "nieto",
    "nieto": "hijo",
    "hija": "sobrina",
    "sobrina": "nieta",
    "nieta": "hija",
    "marido": "esposo",
    "esposo": "marido",
    "mujer": "esposa",
    "esposa": "mujer",
    "pareja": "compañera",
    "padres": "abuelos",
    "abuelos": "tíos",
    "tios": "padres",
    "hermanos": "primos",
    "primos": "hermanos",
    "hijos": "sobrinos",
    "familiares": "allegados",
    "pare": "avi",
    "avi": "pare",
    "mare": "àvia",
    "avia": "mare",
    "germa": "cosí",
    "cosi": "germà",
    "germana": "cosina",
    "cosina": "germana",
    "fill": "nebot",
    "filla": "neboda",
    "dona": "parella",
    "marit": "company",
    "parella": "companya",
}
# Kinship words of women, for the sex of a name that follows one ("hija Amaia").
_FEMALE_KIN = frozenset(
    {
        "madre",
        "abuela",
        "tia",
        "hermana",
        "prima",
        "hija",
        "sobrina",
        "nieta",
        "esposa",
        "mujer",
        "mare",
        "avia",
        "germana",
        "cosina",
        "filla",
        "neboda",
        "dona",
        "companya",
        "compañera",
    }
)


def profession(original: str, context: SurrogateContext) -> str:
    """Another job, of the original's gender where the title shows one (``profesora`` -> ``abogada``)."""
    stripped = original.strip()
    rng = context.random("job", fold(original))
    if is_feminine_head(stripped, pools.job_heads()):
        # Avoid the title whose feminine is the original, or "abogada" would come back as itself.
        masculine = next((job for job in pools.jobs().values if fold(feminine_title(job)) == fold(stripped)), stripped)
        new = feminine_title(pools.jobs().pick(rng, avoid=masculine))
    else:
        new = pools.jobs().pick(rng, avoid=stripped)
    return original.replace(stripped, match_case(stripped, new))


def sex(original: str, context: SurrogateContext) -> str:
    """The sex as written, or its counterpart with the "swap" option."""
    if context.options.sex == "keep":
        return original
    stripped = original.strip()
    other = _OTHER_SEX.get(fold(stripped).replace(" ", ""))
    return original.replace(stripped, match_case(stripped, other)) if other else original


_WORD = re.compile(r"[^\W\d_]+")
_CAPITALISED = r"[A-ZÁÉÍÓÚÑÇ][^\W\d_]+"
_CAPITALISED_RUN = re.compile(rf"(?<!\w){_CAPITALISED}(?:\s+(?:de\s+|del\s+)?{_CAPITALISED})*")


def relative(original: str, context: SurrogateContext, name_surrogate: Callable[[str, str | None], str]) -> str:
    """Kinship words become another relative, names in the mention surrogate names; ages stay."""
    kin_words = [fold(w) for w in _WORD.findall(original) if fold(w) in _KIN]
    gender = ("F" if kin_words[0] in _FEMALE_KIN else "M") if kin_words else None

    def new_names(match: re.Match[str]) -> str:
        first, _, rest = match.group().partition(" ")
        if fold(first) in _KIN:  # "Hermana María José": the kinship word is not a name
            return first + " " + name_surrogate(rest, gender) if rest.strip() else first
        return name_surrogate(match.group(), gender)

    def new_kin(match: re.Match[str]) -> str:
        kin = _KIN.get(fold(match.group()))
        return match_case(match.group(), kin) if kin else match.group()

    with_names = _CAPITALISED_RUN.sub(new_names, original)
    if context.options.kinship == "keep":
        return with_names  # kinship words, numbers and ages as written: only names change
    new = _WORD.sub(new_kin, original) if with_names == original else _kin_outside_names(original, with_names, new_kin)
    if fold(new) == fold(original):
        rng = context.random("relative", fold(original))
        new = reshape(original, rng) if re.search(r"\d", original) else match_case(original.strip(), "familiar")
    return new


def _kin_outside_names(original: str, with_names: str, new_kin: Callable[[re.Match[str]], str]) -> str:
    """Only the first word can be a kinship word once names were replaced (surrogate names are left alone)."""
    return _WORD.sub(new_kin, with_names, count=1)


def other_fact(original: str, context: SurrogateContext) -> str:
    """Numbers keep their layout; anything else (an employer...) becomes a company name."""
    rng = context.random("other", fold(original))
    if re.search(r"\d", original):
        return reshape(original, rng)
    suffix = rng.choice(tuple(SpainCompanies.company_suffixes))
    return f"{pools.surnames().pick(rng)} y {pools.surnames().pick(rng)} {suffix}"
