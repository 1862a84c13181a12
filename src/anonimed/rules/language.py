"""The rule language: what a rule file says, read into typed objects with errors that name the file and the rule.

A rule file (YAML) holds ``rules`` and, optionally, ``gazetteers`` (see ``docs/rules.md``)::

    gazetteers:
      titles: {words: [dr, dra, doctor, doctora]}
    rules:
      - name: doctor-after-title
        label: NOMBRE_PERSONAL_SANITARIO
        pattern:
          - {in: titles}
          - {text: ".", optional: true}
          - {shape: title, phi: true, repeat: [1, 3]}

A pattern is a sequence of elements; each element matches one token (its conditions must all hold) or, with
``any``, one of several sub-sequences.  ``optional`` and ``repeat: [min, max]`` say how many times it may occur.  The
PHI part of a match is the stretch from the first to the last token matched by an element marked ``phi: true`` (the
whole match when none is marked); where such an edge token's ``regex`` has a group named ``phi``, only that group is
PHI (``dAnna`` → ``Anna``), so a rule can take part of a token.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from anonimed.schema import PHI_TYPES

SHAPES = ("upper", "title", "lower", "digits", "alpha", "alnum", "punct", "mixed")
# The attributes a token condition may name; ``not`` holds a nested condition.
CONDITION_KEYS = frozenset(
    {
        "text",
        "lower",
        "fold",
        "shape",
        "regex",
        "in",
        "not_in",
        "lemma",
        "pos",
        "length",
        "glued",
        "line_start",
        "line_end",
        "not",
    }
)
ELEMENT_KEYS = frozenset({"any", "optional", "repeat", "phi"})
RULE_KEYS = frozenset({"name", "label", "pattern", "score", "description", "examples", "cross_lines"})
MAX_REPEAT = 60  # a leader of dots between a key and its value can run to 40 or more


class RuleError(ValueError):
    """A rule file that cannot be read: the message names the file, the rule and the problem."""


@dataclass(frozen=True)
class TokenCondition:
    """What one token must be.  Every attribute that is set must hold; unset ones (``None``) do not matter.

    ``text``: exact forms; ``lower``: lower-case forms; ``fold``: lower-case forms without accents; ``shape``: one or more
    of :data:`SHAPES` (any of them); ``regex``: a regular expression the whole token matches; ``gazetteers``: names of lists one of
    which holds the token's folded form; ``excluded``: lists none of which may hold it; ``lemmas``/``tags``: lemma and
    part of speech from a tagger; ``length``: bounds on the number of characters; ``glued``: whether the token
    touches the one before it (no space between); ``line_start``/``line_end``: whether it is the first/last token of
    its line; ``negated``: a condition that must not hold.
    """

    text: frozenset[str] | None = None
    lower: frozenset[str] | None = None
    fold: frozenset[str] | None = None
    shape: frozenset[str] | None = None
    regex: re.Pattern[str] | None = None
    gazetteers: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()
    lemmas: frozenset[str] | None = None
    tags: frozenset[str] | None = None
    length: tuple[int, int] | None = None
    glued: bool | None = None
    line_start: bool | None = None
    line_end: bool | None = None
    negated: TokenCondition | None = None

    @cached_property
    def lookup_forms(self) -> frozenset[str] | None:
        """The folded forms of the words ``text``, ``lower`` or ``fold`` lists (the first one set): the matcher finds
        the tokens that can meet the condition by looking these up (None: no list of words narrows them)."""
        words = self.text or self.lower or self.fold
        return None if words is None else frozenset(fold(word) for word in words)

    @property
    def needs_tagger(self) -> bool:
        nested = self.negated is not None and self.negated.needs_tagger
        return self.lemmas is not None or self.tags is not None or nested

    def gazetteer_names(self) -> set[str]:
        names = {*self.gazetteers, *self.excluded}
        if self.negated is not None:
            names |= self.negated.gazetteer_names()
        return names


@dataclass(frozen=True)
class Element:
    """One step of a pattern: a token ``condition`` or ``alternatives`` (sub-sequences), ``low`` to ``high`` times."""

    condition: TokenCondition | None = None
    alternatives: tuple[tuple[Element, ...], ...] = ()
    low: int = 1
    high: int = 1
    phi: bool = False

    def walk(self) -> list[Element]:
        """This element and every element nested in its alternatives."""
        found = [self]
        for sequence in self.alternatives:
            for element in sequence:
                found.extend(element.walk())
        return found


@dataclass(frozen=True)
class Rule:
    """A named pattern and the MEDDOCAN type of the PHI it finds."""

    name: str
    label: str
    pattern: tuple[Element, ...]
    score: float = 0.9
    description: str = ""
    examples: tuple[str, ...] = ()
    cross_lines: bool = False
    origin: str = field(default="", compare=False)

    def elements(self) -> list[Element]:
        return [nested for element in self.pattern for nested in element.walk()]

    @property
    def needs_tagger(self) -> bool:
        return any(e.condition is not None and e.condition.needs_tagger for e in self.elements())

    def gazetteer_names(self) -> set[str]:
        names: set[str] = set()
        for element in self.elements():
            if element.condition is not None:
                names |= element.condition.gazetteer_names()
        return names


def parse_rules(entries: Any, origin: str) -> list[Rule]:
    """The rules of a file's ``rules`` list; ``origin`` (the file) goes into every error message."""
    if not isinstance(entries, list):
        raise RuleError(f"{origin}: 'rules' must be a list of rules, got {type(entries).__name__}")
    rules = []
    for index, entry in enumerate(entries, 1):
        where = f"{origin}: rule {index}"
        if not isinstance(entry, Mapping):
            raise RuleError(f"{where}: a rule is a mapping with name, label and pattern, got {entry!r}")
        if isinstance(entry.get("name"), str):
            where = f"{origin}: rule {entry['name']!r}"
        rules.append(_parse_rule(entry, where, origin))
    return rules


def _parse_rule(entry: Mapping[str, Any], where: str, origin: str) -> Rule:
    _no_unknown_keys(entry, RULE_KEYS, where, "rule")
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise RuleError(f"{where}: every rule needs a 'name' (a short text)")
    label = entry.get("label")
    if label not in PHI_TYPES:
        raise RuleError(
            f"{where}: unknown label {label!r}; use a MEDDOCAN type such as NOMBRE_SUJETO_ASISTENCIA (see docs/rules.md)"
        )
    score = entry.get("score", 0.9)
    if isinstance(score, bool) or not isinstance(score, int | float) or not 0 < score <= 1:
        raise RuleError(f"{where}: 'score' must be a number in (0, 1], got {score!r}")
    pattern = _parse_sequence(entry.get("pattern"), where)
    if all(element.low == 0 for element in pattern):
        raise RuleError(f"{where}: every element of the pattern is optional, so it could match nothing")
    examples = entry.get("examples", [])
    if not isinstance(examples, list) or not all(isinstance(e, str) for e in examples):
        raise RuleError(f"{where}: 'examples' must be a list of texts")
    return Rule(
        name=name,
        label=label,
        pattern=pattern,
        score=float(score),
        description=str(entry.get("description", "")),
        examples=tuple(examples),
        cross_lines=_boolean(entry.get("cross_lines", False), where, "cross_lines"),
        origin=origin,
    )


def _parse_sequence(entries: Any, where: str) -> tuple[Element, ...]:
    if not isinstance(entries, list) or not entries:
        raise RuleError(f"{where}: 'pattern' must be a non-empty list of token conditions")
    return tuple(_parse_element(entry, f"{where}, element {i}") for i, entry in enumerate(entries, 1))


def _parse_element(entry: Any, where: str) -> Element:
    if not isinstance(entry, Mapping):
        raise RuleError(f"{where}: an element is a mapping of conditions such as {{shape: title}}, got {entry!r}")
    _no_unknown_keys(entry, CONDITION_KEYS | ELEMENT_KEYS, where, "element")
    low, high = 1, 1
    if "repeat" in entry:
        low, high = _bounds(entry["repeat"], where, "repeat", MAX_REPEAT)
    if _boolean(entry.get("optional", False), where, "optional"):
        low = 0
    phi = _boolean(entry.get("phi", False), where, "phi")
    conditions = {key: value for key, value in entry.items() if key in CONDITION_KEYS}
    if "any" in entry:
        if conditions:
            raise RuleError(f"{where}: 'any' (alternatives) cannot be mixed with token conditions in one element")
        alternatives = entry["any"]
        if not isinstance(alternatives, list) or not alternatives:
            raise RuleError(f"{where}: 'any' must be a list of alternatives (each a list of elements)")
        parsed = tuple(
            _parse_sequence(option if isinstance(option, list) else [option], f"{where}, alternative {i}")
            for i, option in enumerate(alternatives, 1)
        )
        return Element(alternatives=parsed, low=low, high=high, phi=phi)
    if not conditions:
        raise RuleError(f"{where}: an element needs at least one condition (text, lower, shape, regex, in...)")
    return Element(condition=_parse_condition(conditions, where), low=low, high=high, phi=phi)


def _parse_condition(entry: Mapping[str, Any], where: str) -> TokenCondition:
    _no_unknown_keys(entry, CONDITION_KEYS, where, "condition")
    shape = _words(entry, "shape", where, str)
    for name in sorted(shape or ()):
        if name not in SHAPES:
            raise RuleError(f"{where}: unknown shape {name!r}; use one of {', '.join(SHAPES)}")
    regex = None
    if "regex" in entry:
        try:
            regex = re.compile(str(entry["regex"]))
        except re.error as error:
            raise RuleError(f"{where}: invalid regex {entry['regex']!r}: {error}") from None
    negated = None
    if "not" in entry:
        if not isinstance(entry["not"], Mapping):
            raise RuleError(f"{where}: 'not' holds a condition such as {{in: months}}")
        negated = _parse_condition(entry["not"], f"{where} (not)")
    length = _bounds(entry["length"], where, "length", 1000) if "length" in entry else None
    condition = TokenCondition(
        text=_words(entry, "text", where, str),
        lower=_words(entry, "lower", where, str.lower),
        fold=_words(entry, "fold", where, fold),
        shape=shape,
        regex=regex,
        gazetteers=tuple(sorted(_words(entry, "in", where, str) or ())),
        excluded=tuple(sorted(_words(entry, "not_in", where, str) or ())),
        lemmas=_words(entry, "lemma", where, str.lower),
        tags=_words(entry, "pos", where, str.upper),
        length=length,
        glued=_optional_boolean(entry, "glued", where),
        line_start=_optional_boolean(entry, "line_start", where),
        line_end=_optional_boolean(entry, "line_end", where),
        negated=negated,
    )
    # Equal conditions are one object (rules repeat them through YAML anchors): the matcher keeps what a condition
    # answered by its identity, and shares it between the rules that hold it.
    return _CONDITIONS.setdefault(condition, condition)


_CONDITIONS: weakref.WeakValueDictionary[TokenCondition, TokenCondition] = weakref.WeakValueDictionary()


def _words(entry: Mapping[str, Any], key: str, where: str, normal: Any) -> frozenset[str] | None:
    if key not in entry:
        return None
    value = entry[key]
    values = value if isinstance(value, list) else [value]
    if not values or not all(isinstance(v, str | int) and not isinstance(v, bool) for v in values):
        raise RuleError(f"{where}: {key!r} must be a text or a list of texts, got {value!r}")
    return frozenset(normal(str(v)) for v in values)


def _bounds(value: Any, where: str, key: str, ceiling: int) -> tuple[int, int]:
    if isinstance(value, int) and not isinstance(value, bool):
        value = [value, value]
    if (
        not isinstance(value, Sequence)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        or not 0 <= value[0] <= value[1] <= ceiling
        or value[1] == 0
    ):
        raise RuleError(
            f"{where}: {key!r} must be [min, max] with 0 <= min <= max <= {ceiling}, max > 0; got {value!r}"
        )
    return int(value[0]), int(value[1])


def _boolean(value: Any, where: str, key: str) -> bool:
    if not isinstance(value, bool):
        raise RuleError(f"{where}: {key!r} must be true or false, got {value!r}")
    return value


def _optional_boolean(entry: Mapping[str, Any], key: str, where: str) -> bool | None:
    return _boolean(entry[key], where, key) if key in entry else None


def _no_unknown_keys(entry: Mapping[str, Any], known: frozenset[str], where: str, what: str) -> None:
    unknown = sorted(set(map(str, entry)) - known)
    if unknown:
        raise RuleError(f"{where}: unknown {what} key {unknown[0]!r}; a {what} may have {', '.join(sorted(known))}")


_ACCENTS = str.maketrans("áàâäéèêëíìîïóòôöúùûüç", "aaaaeeeeiiiioooouuuuc")


def fold(word: str) -> str:
    """Lower case without accents (``ñ`` stays): the form gazetteers and ``fold`` conditions compare."""
    return word.lower().translate(_ACCENTS)
