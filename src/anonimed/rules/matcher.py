"""Matching rules against a note's tokens, with exact character offsets.

The note is cut by anonimed's tokenizer (:mod:`anonimed.text.tokenize`), each token seen with the attributes that
conditions test.  A pattern matches like a regular expression over tokens: greedy repetition with backtracking, the
first (leftmost) match of a rule taken and the scan going on after it.  A match does not cross a line break unless
its rule says ``cross_lines: true`` (a header key's value ends with its line).
"""

from __future__ import annotations

import bisect
from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from anonimed.rules.language import Element, Rule, TokenCondition, fold
from anonimed.text.tokenize import Token, tokenize


class Tagger(Protocol):
    """Lemma and part of speech of each token (for rules with ``lemma`` or ``pos`` conditions)."""

    def tag(self, text: str, tokens: Sequence[Token]) -> list[tuple[str, str]]: ...


@dataclass(frozen=True, slots=True)
class TokenView:
    """A token with what conditions test: its forms, whether it touches the previous token, its line."""

    start: int
    end: int
    text: str
    lower: str
    folded: str
    glued: bool
    new_line: bool
    line_end: bool
    lemma: str = ""
    pos: str = ""


def token_views(text: str, tagger: Tagger | None = None) -> list[TokenView]:
    tokens = tokenize(text)
    tags = tagger.tag(text, tokens) if tagger is not None else [("", "")] * len(tokens)
    views: list[TokenView] = []
    previous_end = 0
    for index, (token, (lemma, pos)) in enumerate(zip(tokens, tags, strict=True)):
        gap = text[previous_end : token.start]
        after = text[token.end : tokens[index + 1].start] if index + 1 < len(tokens) else "\n"
        views.append(
            TokenView(
                token.start,
                token.end,
                token.text,
                token.text.lower(),
                fold(token.text),
                glued=bool(views) and not gap,
                new_line=not views or "\n" in gap or "\r" in gap,
                line_end="\n" in after or "\r" in after,
                lemma=lemma.lower(),
                pos=pos.upper(),
            )
        )
        previous_end = token.end
    return views


def has_shape(token: TokenView, shape: str) -> bool:
    word = token.text
    if shape == "digits":
        return word.isdigit()
    if shape == "alnum":
        return word.isalnum()
    if shape == "punct":
        return not word.isalnum()
    if not word.isalpha():
        return False
    if shape == "upper":
        return word.isupper()
    if shape == "title":
        return word[0].isupper() and (len(word) == 1 or word[1:].islower())
    if shape == "lower":
        return word.islower()
    if shape == "mixed":
        return not (word.isupper() or word.islower() or (word[0].isupper() and word[1:].islower()))
    return shape == "alpha"


def holds(condition: TokenCondition, token: TokenView, gazetteers: Mapping[str, Container[str]]) -> bool:
    """Whether ``token`` meets every attribute that ``condition`` sets (cheap tests first)."""
    if condition.text is not None and token.text not in condition.text:
        return False
    if condition.lower is not None and token.lower not in condition.lower:
        return False
    if condition.fold is not None and token.folded not in condition.fold:
        return False
    if condition.glued is not None and token.glued != condition.glued:
        return False
    if condition.line_start is not None and token.new_line != condition.line_start:
        return False
    if condition.line_end is not None and token.line_end != condition.line_end:
        return False
    if condition.length is not None and not condition.length[0] <= len(token.text) <= condition.length[1]:
        return False
    if condition.shape is not None and not any(has_shape(token, shape) for shape in condition.shape):
        return False
    if condition.lemmas is not None and token.lemma not in condition.lemmas:
        return False
    if condition.tags is not None and token.pos not in condition.tags:
        return False
    if condition.gazetteers and not any(token.folded in gazetteers[name] for name in condition.gazetteers):
        return False
    if any(token.folded in gazetteers[name] for name in condition.excluded):
        return False
    if condition.regex is not None and condition.regex.fullmatch(token.text) is None:
        return False
    return condition.negated is None or not holds(condition.negated, token, gazetteers)


# What a match consumed: (token index, the element whose condition took it, whether it is in the PHI part).
Consumed = tuple[tuple[int, Element, bool], ...]


@dataclass(frozen=True)
class RuleMatch:
    """A rule's match in a note: the PHI part's character offsets and the rule that found it."""

    start: int
    end: int
    rule: Rule


class TokenIndex:
    """A note's tokens, indexed by folded form, so that a rule is tried only where its first token can be."""

    def __init__(self, tokens: Sequence[TokenView], gazetteers: Mapping[str, Container[str]]) -> None:
        self.tokens = tokens
        self.gazetteers = gazetteers
        self.by_form: dict[str, list[int]] = {}
        for position, token in enumerate(tokens):
            self.by_form.setdefault(token.folded, []).append(position)
        self._in_gazetteer: dict[str, list[str]] = {}
        self._holds: dict[TokenCondition, list[int]] = {}
        self._by_shape: dict[str, list[int]] = {}

    def _forms_in(self, name: str) -> list[str]:
        if name not in self._in_gazetteer:
            gazetteer = self.gazetteers[name]
            self._in_gazetteer[name] = [form for form in self.by_form if form in gazetteer]
        return self._in_gazetteer[name]

    def _positions(self, condition: TokenCondition) -> Iterable[int]:
        words = condition.text or condition.lower or condition.fold
        if words is not None:
            return (p for word in {fold(w) for w in words} for p in self.by_form.get(word, ()))
        if condition.gazetteers:
            return (p for name in condition.gazetteers for form in self._forms_in(name) for p in self.by_form[form])
        # Cheap first cuts (a regular expression run by the re module, a shape looked up), the full test after.
        if condition.regex is not None:
            pattern = condition.regex
            return [p for p, token in enumerate(self.tokens) if pattern.fullmatch(token.text)]
        if condition.shape is not None:
            return sorted({p for shape in condition.shape for p in self._shaped(shape)})
        return range(len(self.tokens))

    def _shaped(self, shape: str) -> list[int]:
        if shape not in self._by_shape:
            self._by_shape[shape] = [p for p, token in enumerate(self.tokens) if has_shape(token, shape)]
        return self._by_shape[shape]

    def candidates(self, conditions: Sequence[TokenCondition]) -> list[int]:
        """The positions, in order, whose token meets one of ``conditions``."""
        found: set[int] = set()
        for condition in conditions:
            found.update(self._holding(condition))
        return sorted(found)

    def _holding(self, condition: TokenCondition) -> list[int]:
        # Rules share conditions (YAML anchors): each is tested once per note.
        if condition not in self._holds:
            self._holds[condition] = [
                p for p in self._positions(condition) if holds(condition, self.tokens[p], self.gazetteers)
            ]
        return self._holds[condition]


class _Search:
    """One rule over one note's tokens: the backtracking matcher."""

    def __init__(self, compiled: CompiledRule, index: TokenIndex) -> None:
        self.compiled = compiled
        self.rule = compiled.rule
        self.tokens = index.tokens
        self.gazetteers = index.gazetteers
        self.first = 0
        self.index = index

    def matches(self) -> Iterator[RuleMatch]:
        position = 0
        # Most tokens start no match: only the positions where a match can begin are tried, and of those only the
        # ones with the rule's anchor (a token it cannot do without, such as the '@' of an e-mail) in reach.
        starts = self.index.candidates(self.compiled.starters)
        if self.compiled.anchor is not None:
            condition, nearest, farthest = self.compiled.anchor
            anchors = self.index.candidates([condition])
            starts = [s for s in starts if _any_between(anchors, s + nearest, s + farthest)]
        for start in starts:
            if start < position:
                continue
            position = start
            self.first = position
            found = next(self._sequence(self.rule.pattern, 0, position, (), False), None)
            if found is None or found[0] == position:
                continue
            end, consumed = found
            span = self._phi_part(consumed)
            if span is not None:
                yield RuleMatch(span[0], span[1], self.rule)
            position = end

    def _sequence(
        self, elements: Sequence[Element], k: int, i: int, consumed: Consumed, phi: bool
    ) -> Iterator[tuple[int, Consumed]]:
        if k == len(elements):
            yield i, consumed
            return
        yield from self._repeat(elements, k, i, 0, consumed, phi)

    def _repeat(
        self, elements: Sequence[Element], k: int, i: int, count: int, consumed: Consumed, phi: bool
    ) -> Iterator[tuple[int, Consumed]]:
        element = elements[k]
        if count < element.high:  # greedy: one more occurrence first
            for j, taken in self._once(element, i, consumed, phi or element.phi):
                if j > i:
                    yield from self._repeat(elements, k, j, count + 1, taken, phi)
        if count >= element.low:
            yield from self._sequence(elements, k + 1, i, consumed, phi)

    def _once(self, element: Element, i: int, consumed: Consumed, phi: bool) -> Iterator[tuple[int, Consumed]]:
        if element.condition is None:
            for alternative in element.alternatives:
                yield from self._sequence(alternative, 0, i, consumed, phi)
            return
        if i >= len(self.tokens):
            return
        token = self.tokens[i]
        if i > self.first and token.new_line and not self.rule.cross_lines:
            return
        if holds(element.condition, token, self.gazetteers):
            yield i + 1, (*consumed, (i, element, phi))

    def _phi_part(self, consumed: Consumed) -> tuple[int, int] | None:
        marked = [(i, element) for i, element, phi in consumed if phi]
        if not marked:
            if _marks_phi(self.rule.pattern):
                return None  # the PHI part of the pattern was optional and did not occur
            marked = [(i, element) for i, element, _ in consumed]
        first_index, first_element = marked[0]
        last_index, last_element = marked[-1]
        start = _group_edge(first_element, self.tokens[first_index], "start")
        end = _group_edge(last_element, self.tokens[last_index], "end")
        return (start, end) if start < end else None


def _any_between(sorted_positions: list[int], low: int, high: int) -> bool:
    index = bisect.bisect_left(sorted_positions, low)
    return index < len(sorted_positions) and sorted_positions[index] <= high


def _length_bounds(element: Element) -> tuple[int, int]:
    """How many tokens an element can take, at least and at most."""
    if element.condition is not None:
        return element.low, element.high
    bounds = [_sequence_bounds(alternative) for alternative in element.alternatives]
    return element.low * min(b[0] for b in bounds), element.high * max(b[1] for b in bounds)


def _sequence_bounds(sequence: Sequence[Element]) -> tuple[int, int]:
    bounds = [_length_bounds(element) for element in sequence]
    return sum(b[0] for b in bounds), sum(b[1] for b in bounds)


def _selective(condition: TokenCondition) -> bool:
    return bool(condition.text or condition.lower or condition.fold or condition.gazetteers)


def anchor(pattern: Sequence[Element]) -> tuple[TokenCondition, int, int] | None:
    """A token every match needs after its first, found by a list lookup, and how many tokens after the start it
    can stand: the first mandatory element with a ``text``/``lower``/``fold``/``in`` condition (None without one)."""
    nearest = farthest = 0
    for index, element in enumerate(pattern):
        condition = element.condition
        if index > 0 and condition is not None and element.low > 0 and _selective(condition):
            return condition, nearest, farthest
        low, high = _length_bounds(element)
        nearest, farthest = nearest + low, farthest + high
    return None


@dataclass(frozen=True)
class CompiledRule:
    """A rule with what the matcher works out once: where a match can start, and its anchor."""

    rule: Rule
    starters: tuple[TokenCondition, ...]
    anchor: tuple[TokenCondition, int, int] | None

    @classmethod
    def of(cls, rule: Rule) -> CompiledRule:
        return cls(rule, tuple(starters(rule.pattern)), anchor(rule.pattern))


def starters(pattern: Sequence[Element]) -> list[TokenCondition]:
    """The conditions of the elements that can take the first token of a match."""
    found: list[TokenCondition] = []
    for element in pattern:
        if element.condition is not None:
            found.append(element.condition)
        else:
            for alternative in element.alternatives:
                found.extend(starters(alternative))
        if element.low > 0 and not (element.condition is None and any(_can_be_empty(a) for a in element.alternatives)):
            break
    return found


def _can_be_empty(sequence: Sequence[Element]) -> bool:
    return all(
        element.low == 0 or (element.condition is None and any(_can_be_empty(a) for a in element.alternatives))
        for element in sequence
    )


def _marks_phi(pattern: Sequence[Element]) -> bool:
    return any(nested.phi for element in pattern for nested in element.walk())


def _group_edge(element: Element, token: TokenView, edge: str) -> int:
    """The token's edge, or the edge of its regex's ``phi`` group when the element's condition has one."""
    regex = element.condition.regex if element.condition is not None else None
    if regex is None or "phi" not in regex.groupindex:
        return token.start if edge == "start" else token.end
    match = regex.fullmatch(token.text)
    if match is None or match.start("phi") < 0:
        return token.start if edge == "start" else token.end
    return token.start + (match.start("phi") if edge == "start" else match.end("phi"))


def find_matches(
    rules: Sequence[CompiledRule], tokens: Sequence[TokenView], gazetteers: Mapping[str, Container[str]]
) -> list[RuleMatch]:
    """Every match of every rule, in rule order (overlaps between rules are left to the caller)."""
    index = TokenIndex(tokens, gazetteers)
    return [match for rule in rules for match in _Search(rule, index).matches()]
