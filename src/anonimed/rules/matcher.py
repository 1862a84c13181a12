"""Matching rules against a note's tokens, with exact character offsets.

The note is cut by anonimed's tokenizer (:mod:`anonimed.text.tokenize`), each token seen with the attributes that
conditions test.  A pattern matches like a regular expression over tokens: greedy repetition with backtracking, the
first (leftmost) match of a rule taken and the scan going on after it.  A match does not cross a line break unless
its rule says ``cross_lines: true`` (a header key's value ends with its line).
"""

from __future__ import annotations

import itertools
from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from anonimed.rules.language import Element, Rule, TokenCondition, fold
from anonimed.text.tokenize import Token, tokenize


class Tagger(Protocol):
    """Lemma and part of speech of each token (for rules with ``lemma`` or ``pos`` conditions)."""

    def tag(self, text: str, tokens: Sequence[Token]) -> list[tuple[str, str]]: ...


class TokenView(NamedTuple):
    """A token with what conditions test: its forms, whether it touches the previous token, its line.

    A named tuple: a note has hundreds of tokens, and a tuple is made several times faster than a frozen dataclass.
    """

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
    # Whether a line break separates each token from the one before it (the note's start and end count as breaks):
    # a token starts a line after a break, and ends one before the next token's break.
    breaks = [True, *(_line_break(text, a.end, b.start) for a, b in itertools.pairwise(tokens)), True]
    forms: dict[str, tuple[str, str]] = {}  # lower-case and folded forms of each distinct word, made once
    views: list[TokenView] = []
    for index, (token, (lemma, pos)) in enumerate(zip(tokens, tags, strict=True)):
        word = token.text
        lower, folded = forms.get(word) or forms.setdefault(word, (word.lower(), fold(word)))
        views.append(
            TokenView(
                token.start,
                token.end,
                word,
                lower,
                folded,
                index > 0 and tokens[index - 1].end == token.start,  # glued
                breaks[index],  # new_line
                breaks[index + 1],  # line_end
                lemma.lower(),
                pos.upper(),
            )
        )
    return views


def _line_break(text: str, start: int, end: int) -> bool:
    return text.find("\n", start, end) >= 0 or text.find("\r", start, end) >= 0


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


# One token a match cannot do without: a condition and how many tokens after the match's start it can stand.
Reach = tuple[TokenCondition, int, int]
# What a match consumed: (token index, the element whose condition took it, whether it is in the PHI part).
Consumed = tuple[tuple[int, Element, bool], ...]


@dataclass(frozen=True)
class RuleMatch:
    """A rule's match in a note: the PHI part's character offsets and the rule that found it."""

    start: int
    end: int
    rule: Rule


class ConditionMemo:
    """What each condition answered about the tokens it was tested on, kept from note to note.

    A condition's answer depends on nothing but the token's :func:`form_key` (its text, the three place marks, its
    lemma and part of speech), and most forms recur from note to note: a condition is evaluated once per form, then
    looked up.  Keyed by the condition's identity (each entry holds its condition, so the identity cannot be reused)
    and bounded: past ``limit`` answers, all are dropped at the start of the next note.  The gazetteers must not
    change while the memo lives (a :class:`~anonimed.rules.ruleset.RuleSet` owns both).
    """

    def __init__(self, gazetteers: Mapping[str, Container[str]], limit: int = 200_000) -> None:
        self.gazetteers = gazetteers
        self.limit = limit
        self._answers: dict[int, tuple[TokenCondition, dict[str, bool]]] = {}

    def __len__(self) -> int:
        # A copy of the entries: another thread may add one meanwhile (a service detects in several threads).
        return sum(len(answers) for _, answers in list(self._answers.values()))

    def start_note(self) -> None:
        if len(self) > self.limit:
            self._answers = {}

    def answers(self, condition: TokenCondition) -> dict[str, bool]:
        """The answers of ``condition`` so far, by form key (filled in by the caller)."""
        entry = self._answers.get(id(condition))
        if entry is None:
            entry = self._answers[id(condition)] = (condition, {})
        return entry[1]


def form_key(token: TokenView) -> str:
    """Everything a condition can test of a token, in one string (a string keeps its hash: cheap to look up again)."""
    marks = chr(ord("0") + token.glued + 2 * token.new_line + 4 * token.line_end)
    return f"{marks}{token.text}\x00{token.lemma}\x00{token.pos}" if token.lemma or token.pos else marks + token.text


class TokenIndex:
    """A note's tokens, indexed by folded form, so that a rule is tried only where its first token can be."""

    def __init__(self, tokens: Sequence[TokenView], memo: ConditionMemo) -> None:
        self.tokens = tokens
        self.memo = memo
        self.gazetteers = memo.gazetteers
        memo.start_note()
        self.keys = [form_key(token) for token in tokens]
        self.by_key: dict[str, list[int]] = {}
        for position, key in enumerate(self.keys):
            self.by_key.setdefault(key, []).append(position)
        self.by_form: dict[str, list[int]] = {}
        for position, token in enumerate(tokens):
            self.by_form.setdefault(token.folded, []).append(position)
        self._in_gazetteer: dict[str, list[str]] = {}
        # Keyed by the condition's identity (equal conditions are one object, see language.py): no equality test.
        self._holds: dict[int, list[int]] = {}
        self._answers: dict[int, dict[str, bool]] = {}  # the memo's tables, found once per note

    def _table(self, condition: TokenCondition) -> dict[str, bool]:
        answers = self._answers.get(id(condition))
        if answers is None:
            answers = self._answers[id(condition)] = self.memo.answers(condition)
        return answers

    def holds(self, condition: TokenCondition, position: int) -> bool:
        """Whether the token at ``position`` meets ``condition`` (the memo's answer for its form when it has one)."""
        answers = self._table(condition)
        key = self.keys[position]
        answer = answers.get(key)
        if answer is None:
            answer = answers[key] = holds(condition, self.tokens[position], self.gazetteers)
        return answer

    def holding_any(self, conditions: Sequence[TokenCondition], positions: Iterable[int]) -> list[int]:
        """The ``positions``, in the order given, whose token meets one of ``conditions`` (positions outside the note
        are left out): :meth:`holds` for many positions, without a call for each."""
        tables = [(condition, self._table(condition)) for condition in conditions]
        keys, tokens, count = self.keys, self.tokens, len(self.keys)
        found = []
        for position in positions:
            if not 0 <= position < count:
                continue
            key = keys[position]
            for condition, answers in tables:
                answer = answers.get(key)
                if answer is None:
                    answer = answers[key] = holds(condition, tokens[position], self.gazetteers)
                if answer:
                    found.append(position)
                    break
        return found

    def _forms_in(self, name: str) -> list[str]:
        if name not in self._in_gazetteer:
            gazetteer = self.gazetteers[name]
            self._in_gazetteer[name] = [form for form in self.by_form if form in gazetteer]
        return self._in_gazetteer[name]

    def _positions(self, condition: TokenCondition) -> Iterable[int] | None:
        """Where ``condition`` can hold, found by a lookup (None when no lookup narrows it: every form is tested)."""
        forms = condition.lookup_forms
        if forms is not None:
            return (p for form in forms for p in self.by_form.get(form, ()))
        if condition.gazetteers:
            return (p for name in condition.gazetteers for form in self._forms_in(name) for p in self.by_form[form])
        return None

    def candidates(self, conditions: Sequence[TokenCondition]) -> list[int]:
        """The positions, in order, whose token meets one of ``conditions``."""
        found: set[int] = set()
        for condition in conditions:
            found.update(self._holding(condition))
        return sorted(found)

    def _holding(self, condition: TokenCondition) -> list[int]:
        # Rules share conditions (YAML anchors): each is tested once per note, and once per distinct form.
        found = self._holds.get(id(condition))
        if found is None:
            positions = self._positions(condition)
            if positions is None:
                found = self._holding_forms(condition)
            else:
                found = self.holding_any((condition,), positions)
            self._holds[id(condition)] = found
        return found

    def _holding_forms(self, condition: TokenCondition) -> list[int]:
        # Every distinct form of the note is looked up (the same loop as holds(), without a call per form).
        answers = self.memo.answers(condition)
        holding = []
        for key, positions in self.by_key.items():
            answer = answers.get(key)
            if answer is None:
                answer = answers[key] = holds(condition, self.tokens[positions[0]], self.gazetteers)
            if answer:
                holding.extend(positions)
        holding.sort()
        return holding

    def reachable(self, anchor: Sequence[Reach]) -> set[int]:
        """The starts from which one of ``anchor``'s conditions holds within its reach."""
        starts: set[int] = set()
        for condition, nearest, farthest in anchor:
            for position in self._holding(condition):
                starts.update(range(position - farthest, position - nearest + 1))
        return starts


class _Search:
    """One rule over one note's tokens: the backtracking matcher."""

    def __init__(self, compiled: CompiledRule, index: TokenIndex) -> None:
        self.compiled = compiled
        self.rule = compiled.rule
        self.tokens = index.tokens
        self.first = 0
        self.index = index

    def matches(self) -> Iterator[RuleMatch]:
        position = phi_end = 0
        for start in self._starts():
            if start < position:
                continue
            position = start
            self.first = position
            found = next(self._sequence(self.rule.pattern, 0, position, (), False), None)
            if found is None or found[0] == position:
                continue
            end, consumed = found
            span = self._phi_part(consumed)
            if span is None or span[1] <= phi_end:  # nothing, or a piece of the last match's PHI (Dos Hermanas)
                position = end
                continue
            yield RuleMatch(span[0], span[1], self.rule)
            phi_end = span[1]
            # The next match may start at this one's last PHI token or in the context after it (lun, mié y vie:
            # the mié of lun, mié starts mié y vie).
            position = _last_phi_token(consumed, end)

    def _starts(self) -> list[int]:
        """Most tokens start no match: only the positions where a match can begin are tried, and of those only the
        ones with the rule's anchors (tokens it cannot do without, such as the '@' of an e-mail) in reach.  When a
        starter is found by no lookup (a shape, a regular expression) and anchors are, the anchors narrow the
        positions first and the starters are tested there alone, not on every word of the note."""
        starters, anchors = self.compiled.starters, self.compiled.anchors
        if anchors and not all(_selective(condition) for condition in starters):
            reachable = self.index.reachable(anchors[0])  # a new set: narrowed in place
            for anchor in anchors[1:]:
                if not reachable:
                    return []
                reachable &= self.index.reachable(anchor)
            return self.index.holding_any(starters, sorted(reachable))
        starts = self.index.candidates(starters)
        for anchor in anchors:
            if not starts:
                break
            reachable = self.index.reachable(anchor)
            starts = [start for start in starts if start in reachable]
        return starts

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
        if element.condition is not None and element.high == 1:
            # Most elements are one token, at most once (count is 0 here): tested at once, without the generators
            # of _once and of a second _repeat.
            if self._takes(element.condition, i):
                yield from self._sequence(elements, k + 1, i + 1, (*consumed, (i, element, phi or element.phi)), phi)
            if element.low == 0 or (self._line_over(i) and _only_negated(element.condition)):
                # A word that must not follow does not follow the end of a line (after Sant Joan, not de Déu).
                yield from self._sequence(elements, k + 1, i, consumed, phi)
            return
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
        elif self._takes(element.condition, i):
            yield i + 1, (*consumed, (i, element, phi))

    def _takes(self, condition: TokenCondition, i: int) -> bool:
        """Whether the token at ``i`` can be taken for ``condition``: there is one, on the match's line (unless the
        rule crosses lines), and it meets the condition."""
        return not self._line_over(i) and self.index.holds(condition, i)

    def _line_over(self, i: int) -> bool:
        """Whether no token at ``i`` can join the match: the text has ended, or the match's line (unless the rule
        crosses lines)."""
        return i >= len(self.tokens) or (i > self.first and self.tokens[i].new_line and not self.rule.cross_lines)

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


def _only_negated(condition: TokenCondition) -> bool:
    """Whether ``condition`` only says what a token must not be (``{not: ...}``)."""
    return condition.negated is not None and condition == TokenCondition(negated=condition.negated)


def _last_phi_token(consumed: Consumed, end: int) -> int:
    """A match's last PHI token (the end of the whole match when it marks none)."""
    marked = [i for i, _, phi in consumed if phi]
    return marked[-1] if marked else end


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


def anchors(pattern: Sequence[Element]) -> tuple[tuple[Reach, ...], ...]:
    """What every match needs after its first token, found by list lookups: one entry per mandatory element with a
    ``text``/``lower``/``fold``/``in`` condition, or with alternatives that each have one (the entry then names one
    condition per alternative, any of which will do).  A start is tried only where every entry is within reach."""
    found = []
    nearest = farthest = 0
    for index, element in enumerate(pattern):
        if index > 0 and element.low > 0:
            needed = _needed(element)
            if needed:
                found.append(tuple((condition, nearest + low, farthest + high) for condition, low, high in needed))
        low, high = _length_bounds(element)
        nearest, farthest = nearest + low, farthest + high
    return tuple(found)


def _needed(element: Element) -> list[Reach]:
    """Conditions one of which the first occurrence of a mandatory ``element`` must meet, with their reach from its
    start (empty when some alternative has no selective condition that it must meet)."""
    if element.condition is not None:
        return [(element.condition, 0, 0)] if _selective(element.condition) else []
    needed: list[Reach] = []
    for alternative in element.alternatives:
        # The last one an alternative must meet that is no punctuation mark: its first is often a common word (the
        # "de" of "de historia"), and the "." of "h ." is on every line.
        last: list[Reach] = []
        nearest = farthest = 0
        for nested in alternative:
            if nested.low > 0:
                inner = _needed(nested)
                if inner and not (last and all(_punctuation(condition) for condition, _, _ in inner)):
                    last = [(condition, nearest + low, farthest + high) for condition, low, high in inner]
            low, high = _length_bounds(nested)
            nearest, farthest = nearest + low, farthest + high
        if not last:
            return []
        needed.extend(last)
    return needed


def _punctuation(condition: TokenCondition) -> bool:
    """Whether ``condition`` only takes punctuation marks (``text: [".", ","]``)."""
    words = condition.text or condition.lower or condition.fold or frozenset()
    return bool(words) and not condition.gazetteers and all(not any(c.isalnum() for c in word) for word in words)


@dataclass(frozen=True)
class CompiledRule:
    """A rule with what the matcher works out once: where a match can start, and its anchors."""

    rule: Rule
    starters: tuple[TokenCondition, ...]
    anchors: tuple[tuple[Reach, ...], ...]

    @classmethod
    def of(cls, rule: Rule) -> CompiledRule:
        return cls(rule, tuple(starters(rule.pattern)), anchors(rule.pattern))


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


def find_matches(rules: Sequence[CompiledRule], tokens: Sequence[TokenView], memo: ConditionMemo) -> list[RuleMatch]:
    """Every match of every rule, in rule order (overlaps between rules are left to the caller)."""
    index = TokenIndex(tokens, memo)
    return [match for rule in rules for match in _Search(rule, index).matches()]
