"""Weighted pools of realistic values, built at run time from the data that Faker ships.

Common values are picked more often than rare ones: a value's weight grows with its frequency in Spanish text
(``wordfreq``), damped by a square root and capped, so that names which are also frequent words ("Bueno", "Rosa")
are no likelier than the commonest names.
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections import Counter
from dataclasses import dataclass
from functools import cache

from faker.providers.address.es import Provider as SpanishAddresses
from faker.providers.address.es_ES import Provider as SpainAddresses
from faker.providers.company.es_ES import Provider as SpainCompanies
from faker.providers.job.es import Provider as SpanishJobs
from faker.providers.person.es_CA import Provider as CatalanPeople
from faker.providers.person.es_ES import Provider as SpainPeople
from wordfreq import zipf_frequency

from anonimed.transform.surrogates.text import fold


@dataclass(frozen=True)
class Pool:
    values: tuple[str, ...]
    cumulative: tuple[float, ...]

    @classmethod
    def weighted(cls, values: tuple[str, ...] | list[str], language: str = "es") -> Pool:
        unique = tuple(dict.fromkeys(values))
        weights = [10 ** (min(max(zipf_frequency(v, language), 1.5), 4.0) / 2) for v in unique]
        return cls(unique, tuple(itertools.accumulate(weights)))

    def pick(self, rng: random.Random, avoid: str = "", also_avoid: frozenset[str] = frozenset()) -> str:
        """A value drawn by weight, never one equal to ``avoid`` nor one whose folded form is in ``also_avoid``
        (accents and case aside)."""
        avoided = also_avoid | {fold(avoid)}
        for _ in range(20):
            value = self.values[bisect.bisect(self.cumulative, rng.random() * self.cumulative[-1])]
            if fold(value) not in avoided:
                return value
        return next(v for v in self.values if fold(v) not in avoided)


@cache
def given_names(gender: str, catalan: bool = False) -> Pool:
    """Given names of ``gender`` ("F" or "M"), Catalan ones when ``catalan``."""
    people = CatalanPeople if catalan else SpainPeople
    names = people.first_names_female if gender == "F" else people.first_names_male
    # One word each: a mention's given names are replaced word by word.
    return Pool.weighted(tuple(n for n in names if " " not in n), "ca" if catalan else "es")


@cache
def surnames() -> Pool:
    return Pool.weighted(tuple(SpainPeople.last_names))


@cache
def given_name_genders() -> dict[str, str | None]:
    """Folded given name -> "F", "M" or None (either).  A compound name takes the sex of its first word ("José María"
    is male, "María José" female), so a word's sex is the one of most names it starts."""
    starts: dict[str, Counter[str]] = {}
    for people in (SpainPeople, CatalanPeople):
        for gender, names in (("F", people.first_names_female), ("M", people.first_names_male)):
            for name in names:
                first, *others = fold(name).split()
                starts.setdefault(first, Counter())[gender] += 1
                for part in others:
                    starts.setdefault(part, Counter())
    return {name: _majority(counts) for name, counts in starts.items()}


def _majority(counts: Counter[str]) -> str | None:
    ranked = counts.most_common()
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


@cache
def catalan_given_names() -> frozenset[str]:
    return frozenset(fold(n) for n in (*CatalanPeople.first_names_female, *CatalanPeople.first_names_male)) - frozenset(
        fold(n) for n in (*SpainPeople.first_names_female, *SpainPeople.first_names_male)
    )


@cache
def countries() -> Pool:
    return Pool.weighted(tuple(SpanishAddresses.countries))


@cache
def regions() -> tuple[str, ...]:
    return tuple(SpainAddresses.regions)


@cache
def jobs() -> Pool:
    # Short titles only: the ILO list also holds long category names that nobody would write in a note.
    return Pool.weighted(tuple(j for j in SpanishJobs.jobs if len(j.split()) <= 3))


@cache
def job_heads() -> frozenset[str]:
    """The first words of Faker's Spanish job titles, lower case (masculine or of both genders)."""
    return frozenset(job.partition(" ")[0].lower() for job in SpanishJobs.jobs)


@cache
def street_types() -> tuple[str, ...]:
    # Faker's list also holds rare kinds ("Pasadizo", "Cañada") and an abbreviation; keep the usual full words.
    return tuple(t for t in SpainAddresses.street_prefixes if t[-1] != "." and len(t) > 3)


@cache
def company_suffixes() -> tuple[str, ...]:
    return tuple(SpainCompanies.company_suffixes)
