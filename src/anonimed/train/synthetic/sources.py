"""What the generator draws from, read from the shared data folder at generation time (never committed).

Names, towns, postal codes, countries and hospitals come through :class:`anonimed.models.augment.Gazetteers`; the
lists it does not hold (given names by sex, towns by region, street types, occupations, clinical sentences) are read
here with the same strict, file-naming errors.
"""

from __future__ import annotations

import csv
import gzip
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from anonimed.formats.errors import FormatError
from anonimed.models.augment import Gazetteers

# Catalonia, the Valencian Community and the Balearic Islands (INE community codes): the towns of Catalan notes.
CATALAN_COMMUNITIES = frozenset({"09", "10", "04"})
_CATALAN_HOSPITAL_REGIONS = frozenset({"Cataluña", "Comunidad Valenciana", "Illes Balears"})
_SMALL = frozenset({"de", "del", "la", "las", "los", "el", "y", "i"})

# Street types in everyday use; their spellings and abbreviations are read from libpostal's dictionaries.
_SPANISH_STREET_TYPES = ("calle", "avenida", "plaza", "paseo", "camino", "carretera", "ronda", "travesía", "pasaje")
_CATALAN_STREET_TYPES = ("carrer", "avinguda", "plaça", "passeig", "camí", "carretera", "ronda", "passatge", "rambla")

# A clinical sentence is used as filler only when nothing in it could be unannotated PHI: no digit (dates, ages,
# numbers), no sex, kinship, age or origin word, and no capitalised word after the first (names, places, centres).
_RISKY = re.compile(
    r"\d|@|\b(?:años?|meses|edad|var[oó]n\w*|mujer\w*|hombre\w*|niñ[oa]s?|lactante|ancian[oa]|señor\w*|"
    r"padre|madre|herman\w*|hij[oa]s?|espos[oa]|marido|famili\w*|abuel\w*|prim[oa]s?|tí[oa]s?|sobrin\w*|niet[oa]s?|"
    r"pareja|femenin\w*|masculin\w*|sexo|gestante|embarazad\w*|nacid\w*|origen|nacionalidad|natural|procedente|"
    r"trabaj\w*|profesi\w*|oficio|jubilad\w*|domicilio|residencia|ciudad|pueblo|país|hospital\w*|centro|servicio)\b",
    re.IGNORECASE,
)
_INNER_CAPITAL = re.compile(r"(?<=[\s(\"'«“])[A-ZÁÉÍÓÚÑ][a-záéíóúñü]")
# Occupation mentions that are a sector, a workplace or a phrase rather than a job title.
_NOT_A_JOB = re.compile(
    r"(?:trabaj|dedic|inicia|emple|profesi|jubil|paro|estudi|ama |labores|en |de |el |la |taller|sector|empresa|campo|"
    r"industria|negocio|fábrica|tienda|oficina|construcción|hostelería|agricultura|ganadería|minería|limpieza|"
    r"comercio|banca|sanidad|docencia|función)"
)
_SENTENCE = re.compile(r"(?<=[.])\s+(?=[A-ZÁÉÍÓÚ])")


@dataclass(frozen=True)
class Town:
    name: str
    province: str
    postcodes: tuple[str, ...]


@dataclass(frozen=True)
class Sources:
    male: tuple[str, ...]
    female: tuple[str, ...]
    surnames: tuple[str, ...]
    towns: tuple[Town, ...]
    catalan_towns: tuple[Town, ...]
    countries: tuple[str, ...]
    hospitals: tuple[str, ...]
    catalan_hospitals: tuple[str, ...]
    street_types: tuple[tuple[str, ...], ...]
    catalan_street_types: tuple[tuple[str, ...], ...]
    occupations: tuple[str, ...]
    sentences: tuple[str, ...]


def _rows(path: Path) -> list[dict[str, str]]:
    try:
        with path.open(encoding="utf-8", newline="") as stream:
            return list(csv.DictReader(stream, delimiter="\t" if path.suffix == ".tsv" else ","))
    except (OSError, UnicodeDecodeError) as error:
        raise FormatError(path, f"cannot read this list: {error}") from None


def _field(path: Path, rows: list[dict[str, str]], name: str) -> list[str]:
    try:
        return [row[name].strip() for row in rows]
    except KeyError:
        raise FormatError(path, f"has no column {name!r}") from None


def _title(name: str) -> str:
    return " ".join(w.lower() if w.lower() in _SMALL else w.capitalize() for w in name.split())


def _official(name: str, catalan: bool) -> str:
    """``Alicante/Alacant`` → the Spanish or the Catalan form; ``Rozas, Las`` → ``Las Rozas``."""
    forms = [f.strip() for f in name.split("/")]
    name = forms[-1] if catalan and len(forms) > 1 else forms[0]
    if ", " in name:
        place, article = name.rsplit(", ", 1)
        name = f"{article}{place}" if article.endswith("'") else f"{article} {place}"
    return name


def _street_types(path: Path, wanted: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise FormatError(path, f"cannot read the street types: {error}") from None
    found = {}
    for line in lines:
        forms = [f.strip() for f in line.split("|") if f.strip()]
        if forms and forms[0] in wanted:
            found[forms[0]] = tuple(f for f in forms if f.replace(" /", "/") == f or f == "c /")
    return tuple(found[w] for w in wanted if w in found)


def _usable(sentence: str) -> bool:
    if not (35 <= len(sentence) <= 200 and sentence.endswith(".") and sentence[0].isupper()):
        return False
    return not _RISKY.search(sentence) and not _INNER_CAPITAL.search(sentence)


def _sentences(path: Path, limit: int = 2500, documents: int = 1200) -> tuple[str, ...]:
    kept: list[str] = []
    try:
        with gzip.open(path, "rt", encoding="utf-8") as stream:
            for number, line in enumerate(stream):
                if number >= documents or len(kept) >= limit:
                    break
                for paragraph in json.loads(line).get("text", "").split("\n"):
                    for sentence in _SENTENCE.split(paragraph.strip()):
                        if _usable(sentence):
                            kept.append(sentence)
    except (OSError, ValueError) as error:
        raise FormatError(path, f"cannot read the clinical cases: {error}") from None
    return tuple(kept)


@lru_cache(maxsize=4)
def load_sources(data_dir: str) -> Sources:
    """Every list the generator uses, read from ``data_dir`` (the shared data folder)."""
    root = Path(data_dir)
    if not root.is_dir():
        raise FileNotFoundError(f"shared data folder not found: {root} (give it with --data)")
    gazetteers = Gazetteers.load(root)
    names = root / "spanish-names-ine"
    male = [_title(n) for n in _field(names / "hombres.csv", _rows(names / "hombres.csv"), "nombre")[:1500]]
    female = [_title(n) for n in _field(names / "mujeres.csv", _rows(names / "mujeres.csv"), "nombre")[:1500]]

    ine = root / "spain-ine-municipalities"
    communities = {r["provincia_id"]: r["autonomia_id"] for r in _rows(ine / "provincia_autonomia.csv")}
    provinces = {r["provincia_id"]: r["nombre"] for r in _rows(ine / "provincias.csv")}
    postal = root / "spain-postal-codes" / "codigos_postales_municipios.csv"
    codes: dict[str, list[str]] = {}
    for row in _rows(postal):
        codes.setdefault(row["municipio_id"], []).append(row["codigo_postal"])
    towns: list[Town] = []
    catalan: list[Town] = []
    for row in _rows(ine / "municipios.csv"):
        province = row["provincia_id"]
        own = tuple(c for c in codes.get(row["municipio_id"], ()) if c.startswith(province))
        is_catalan = communities.get(province) in CATALAN_COMMUNITIES
        town = Town(_official(row["nombre"], is_catalan), _official(provinces.get(province, ""), is_catalan), own)
        if own and town.province:
            (catalan if is_catalan else towns).append(town)

    cnh = root / "spain-hospitals-cnh" / "cnh_2024_hospitales.csv"
    hospitals: list[str] = []
    catalan_hospitals: list[str] = []
    for row in _rows(cnh):
        name = row.get("Nombre Centro", "").strip().rstrip(".").strip()
        if name and not re.search(r"residencia|geri[aá]tric|\(|\d", name, re.IGNORECASE):
            (catalan_hospitals if row.get("CCAA") in _CATALAN_HOSPITAL_REGIONS else hospitals).append(name)
    if not hospitals:
        hospitals = list(gazetteers.hospitals)

    postal_dictionaries = root / "libpostal-dictionaries-es-ca-gl-eu"
    mentions = root / "meddoprof-occupation-mentions" / "meddoprof_train_mentions.tsv"
    occupations = [
        row["mention"].strip()
        for row in _rows(mentions)
        if row.get("label") == "PROFESION"
        and "PACIENTE" in row.get("referent_counts", "")
        and re.fullmatch(r"[a-záéíóúñü]+(?: [a-záéíóúñü]+){0,3}", row["mention"].strip())
        and not _NOT_A_JOB.match(row["mention"])
    ]
    return Sources(
        male=tuple(male),
        female=tuple(female),
        surnames=gazetteers.surnames[:1500],
        towns=tuple(towns),
        catalan_towns=tuple(catalan),
        countries=tuple(c for c in gazetteers.countries if " " not in c and "(" not in c),
        hospitals=tuple(hospitals),
        catalan_hospitals=tuple(catalan_hospitals) or tuple(hospitals),
        street_types=_street_types(postal_dictionaries / "es" / "street_types.txt", _SPANISH_STREET_TYPES),
        catalan_street_types=_street_types(postal_dictionaries / "ca" / "street_types.txt", _CATALAN_STREET_TYPES),
        occupations=tuple(dict.fromkeys(occupations)),
        sentences=_sentences(root / "spanish-clinical-cases-combined" / "clinical_cases_es.dedup.jsonl.gz"),
    )
