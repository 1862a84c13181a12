"""A weighted vote of several detectors, token by token (the fifth run of NLNDE at MEDDOCAN, generalised).

Every member tags the note; each token's candidate types collect the weights of the members that put the token in a
span of that type (times the span's score with ``soft`` voting).  A type wins a token when its share of the total
weight reaches the threshold (``label_thresholds`` lets a type need more votes, or fewer).  Where members disagree on
where an entity starts, the heavier side decides.  Spans are then read off the winning tags, score their mean share,
and get the boundary rules of :mod:`anonimed.detect.boundaries`.

Voting per token rather than per span lets two members that agree on a name but not on its last word still outvote
a third; the tokenizer puts 99.98 % of MEDDOCAN's span boundaries on token boundaries (``tests/test_tokenize.py``).
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from anonimed.detect.base import Detector, SentenceDetector
from anonimed.detect.boundaries import tidy
from anonimed.detect.propagate import propagated
from anonimed.document import Document, Span
from anonimed.schema import GROUPS, group_of
from anonimed.text.tagging import OUTSIDE, spans_to_tags, tags_to_spans
from anonimed.text.tokenize import Token, tokenize

if TYPE_CHECKING:
    from anonimed.evaluate import EvaluationReport


# The parent groups (anonimed.schema) whose types a vote's ``pool`` lets share their votes.
POOLS: dict[str | None, frozenset[str]] = {None: frozenset(), "names": frozenset({"NAME"}), "groups": frozenset(GROUPS)}


@dataclass(frozen=True)
class Vote:
    """``weights`` by member name (the detector's ``name``); a member without a weight has no say.

    ``deferred`` names members that read sentence by sentence and are asked only about the sentences where the other
    members found something, even where their weight could make PHI alone: a saving of time that may change the
    vote (a span such a member alone would have found in a sentence no other member touches is lost), so it is
    chosen on measured notes.  Members whose weight cannot reach any threshold are deferred anyway, exactly (see
    :func:`deferred_members`).

    ``pool`` lets the types of one parent group of :mod:`anonimed.schema` (``"names"``: the patient's and the
    clinicians' names; ``"groups"``: every group) share their votes on whether a token is PHI at all; the heaviest
    type then names it.  Without it, a name that one member reads as the patient's and another as a clinician's can
    fall below the threshold on both sides and be lost, although every member found it."""

    weights: Mapping[str, float]
    threshold: float = 0.5
    label_thresholds: Mapping[str, float] = field(default_factory=dict)
    soft: bool = False
    deferred: tuple[str, ...] = ()
    pool: str | None = None

    def __post_init__(self) -> None:
        if not self.weights or any(w < 0 for w in self.weights.values()) or sum(self.weights.values()) <= 0:
            raise ValueError(f"vote weights must be >= 0 and not all 0, got {dict(self.weights)}")
        object.__setattr__(self, "deferred", tuple(self.deferred))  # a JSON list read back
        unweighted = [name for name in self.deferred if self.weights.get(name, 0.0) <= 0]
        if unweighted:
            raise ValueError(f"vote deferred member(s) without a weight: {', '.join(unweighted)}")
        if self.deferred and set(self.deferred) >= {name for name, w in self.weights.items() if w > 0}:
            raise ValueError("a vote cannot defer every member: some member must read the whole note")
        for name, value in [("threshold", self.threshold), *self.label_thresholds.items()]:
            if not 0.0 < value <= 1.0:
                raise ValueError(f"vote threshold {name} must be in (0, 1], got {value}")
        if self.pool not in POOLS:
            raise ValueError(f"vote pool must be one of {', '.join(map(str, POOLS))}, got {self.pool!r}")

    def to_dict(self) -> dict[str, Any]:
        values = asdict(self)
        if not self.deferred:
            del values["deferred"]  # model folders written before the field read the same
        if self.pool is None:
            del values["pool"]
        return {
            key: dict(value) if isinstance(value, Mapping) else list(value) if isinstance(value, tuple) else value
            for key, value in values.items()
        }

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> Vote:
        return cls(**values)


def member_tags(tokens: Sequence[Token], spans: Sequence[Span]) -> list[str]:
    """A member's spans as BIO tags of ``tokens`` (computed once a note when many votes are tried, as in tuning)."""
    return spans_to_tags(tokens, spans, "BIO")


def vote_tags(
    tokens: Sequence[Token], members: Mapping[str, tuple[Sequence[str], Sequence[float]]], vote: Vote, source: str
) -> list[Span]:
    """The voted spans, given each member's BIO tags and, per token, the score of the span that holds it."""
    total = sum(vote.weights.get(name, 0.0) for name in members)
    if total <= 0:
        return []
    tags, shares = [OUTSIDE] * len(tokens), [0.0] * len(tokens)
    weights: dict[int, Mapping[str, float]] = {}
    # Most tokens are outside every member's spans: only the others are voted on.
    for index in {index for member, _ in members.values() for index, tag in enumerate(member) if tag != OUTSIDE}:
        tags[index], shares[index], weights[index] = _token_vote(index, members, vote, total)
    if vote.pool is not None:
        _one_type_per_entity(tags, weights, POOLS[vote.pool])
    return tags_to_spans(tokens, tags, shares, source)


def _one_type_per_entity(tags: list[str], weights: Mapping[int, Mapping[str, float]], groups: Collection[str]) -> None:
    """Names each entity of a pooled group by the type with the most votes over all its tokens: tokens voted apart
    (the patient's first name, a clinician's surname) are one entity of one type."""
    end = 0
    for index in sorted(weights):  # the voted tokens: every other one is outside
        if index < end or tags[index] == OUTSIDE:
            continue
        group = group_of(tags[index][2:])
        if group not in groups:
            continue
        end = index + 1
        while end < len(tags) and tags[end].startswith("I-") and group_of(tags[end][2:]) == group:
            end += 1
        totals: dict[str, float] = defaultdict(float)
        for inside in range(index, end):
            for label, weight in weights[inside].items():
                if group_of(label) == group:
                    totals[label] += weight
        label = max(totals.items(), key=lambda item: item[1])[0]
        tags[index:end] = ["B-" + label] + ["I-" + label] * (end - index - 1)


def _token_vote(
    index: int, members: Mapping[str, tuple[Sequence[str], Sequence[float]]], vote: Vote, total: float
) -> tuple[str, float, Mapping[str, float]]:
    """The tag and share the vote gives the token at ``index``, which some member puts in a span, and the weight each
    type got there."""
    by_label: dict[str, float] = defaultdict(float)
    starts: dict[str, float] = defaultdict(float)
    for name, (member, scores) in members.items():
        tag = member[index]
        if tag == OUTSIDE:
            continue
        weight = vote.weights.get(name, 0.0) * (scores[index] if vote.soft else 1.0)
        label = tag[2:]
        by_label[label] += weight
        if tag[0] == "B":
            starts[label] += weight
    label, weight = max(by_label.items(), key=lambda item: item[1])
    opening = starts[label]
    if vote.pool is not None and group_of(label) in POOLS[vote.pool]:
        pooled = [other for other in by_label if group_of(other) == group_of(label)]
        weight = sum(by_label[other] for other in pooled)
        opening = sum(starts[other] for other in pooled)
    share = weight / total
    if share < vote.label_thresholds.get(label, vote.threshold):
        return OUTSIDE, 0.0, by_label
    # A token opens an entity when the members that start one there outweigh those that continue one.
    return ("B-" if opening * 2 > weight else "I-") + label, min(share, 1.0), by_label


def token_scores(tokens: Sequence[Token], spans: Sequence[Span]) -> list[float]:
    """Per token, the score of the best span that overlaps it (0 outside every span)."""
    scores = [0.0] * len(tokens)
    starts = [t.start for t in tokens]
    for span in spans:
        index = max(bisect.bisect_right(starts, span.start) - 1, 0)
        while index < len(tokens) and tokens[index].start < span.end:
            if tokens[index].end > span.start:
                scores[index] = max(scores[index], span.score)
            index += 1
    return scores


class EnsembleDetector:
    """Several detectors behind one :class:`Vote`; itself a detector (``name``/``source``: ``"ensemble"``)."""

    def __init__(self, members: Sequence[Detector], vote: Vote, name: str = "ensemble") -> None:
        names = [member.name for member in members]
        if not members or len(set(names)) != len(names):
            raise ValueError(f"an ensemble needs members with distinct names, got {names}")
        unknown = sorted(set(vote.weights) - set(names))
        if unknown:
            raise ValueError(f"vote weights for unknown member(s) {', '.join(unknown)}; members: {', '.join(names)}")
        self.members = list(members)
        self.vote = vote
        self.name = name
        self.deferred = deferred_members(self.members, vote) | frozenset(vote.deferred)
        readers = {member.name for member in self.members if isinstance(member, SentenceDetector)}
        unable = sorted(set(vote.deferred) - readers)
        if unable:
            raise ValueError(f"vote defers {', '.join(unable)}: only members that read sentence by sentence can be")
        voters = [member for member in self.members if vote.weights.get(member.name, 0.0) > 0]
        self._first = [member for member in voters if member.name not in self.deferred]
        self._around = [
            member for member in voters if isinstance(member, SentenceDetector) and member.name in self.deferred
        ]

    def detect(self, document: Document) -> list[Span]:
        tokens = tokenize(document.text)
        answers = {}
        found: list[Span] = []
        for member in self._first:
            spans = member.detect(document)
            found.extend(spans)
            answers[member.name] = (member_tags(tokens, spans), token_scores(tokens, spans))
        for reader in self._around:
            spans = reader.detect_around(document, found)
            answers[reader.name] = (member_tags(tokens, spans), token_scores(tokens, spans))
        return tidy(document.text, vote_tags(tokens, answers, self.vote, self.name))


def deferred_members(members: Sequence[Detector], vote: Vote) -> frozenset[str]:
    """The members asked only about the sentences where the others found something: those that read a note sentence
    by sentence (:class:`SentenceDetector`) when their weights together stay under every threshold of the vote.
    Alone they can then make no token PHI, so the sentences where no other member found anything are left to the
    others, and the vote is the same as if every member had read the whole note (the saving is exact: on MEDDOCAN dev
    two thirds of the tokens lie in sentences where the CRF and the patterns find nothing)."""
    voting = [member for member in members if vote.weights.get(member.name, 0.0) > 0]
    candidates = [member.name for member in voting if isinstance(member, SentenceDetector)]
    if not candidates or len(candidates) == len(voting):
        return frozenset()
    total = sum(vote.weights[member.name] for member in voting)
    # Soft votes weigh a span by its score, at most 1: the candidates' share never exceeds their weights' share.
    share = sum(vote.weights[name] for name in candidates) / total
    return frozenset(candidates) if share < min([vote.threshold, *vote.label_thresholds.values()]) else frozenset()


class VoteTuner:
    """Tries votes on fixed member answers: each note is tokenized and each member's tags computed once.

    ``answers`` maps a member name to its spans per document id (the members' output on annotated notes).
    """

    def __init__(
        self,
        gold: Sequence[Document],
        answers: Mapping[str, Mapping[str, Sequence[Span]]],
        sentence_counts: Mapping[str, int] | None = None,
    ) -> None:
        self.gold = list(gold)
        self.sentence_counts = sentence_counts
        self._answers = answers
        self._prepared = []
        for document in self.gold:
            tokens = tokenize(document.text)
            members = {
                name: (member_tags(tokens, spans[document.id]), token_scores(tokens, spans[document.id]))
                for name, spans in answers.items()
            }
            self._prepared.append((document.id, tokens, members))

    def predictions(
        self, vote: Vote, document_ids: Collection[str] | None = None, propagate: bool = False
    ) -> dict[str, list[Span]]:
        """What an ensemble folder with ``vote`` answers: the vote's spans, tidied (:mod:`anonimed.detect.boundaries`),
        and with ``propagate`` their other mentions."""
        result = {}
        for document, (document_id, tokens, members) in zip(self.gold, self._prepared):
            if document_ids is None or document_id in document_ids:
                voters = {n: m for n, m in members.items() if vote.weights.get(n, 0.0) > 0}
                if vote.deferred:
                    voters.update(self._answered_around(document, tokens, vote))
                spans = tidy(document.text, vote_tags(tokens, voters, vote, "ensemble"))
                result[document_id] = sorted(spans + propagated(document.text, spans)) if propagate else spans
        return result

    def _answered_around(
        self, document: Document, tokens: Sequence[Token], vote: Vote
    ) -> dict[str, tuple[list[str], list[float]]]:
        """The tags and scores of ``vote``'s deferred members as they answer when asked only about the sentences
        where the other voters found something (what :class:`EnsembleDetector` asks them)."""
        from anonimed.detect.neural.inference import document_sentences, sentences_overlapping

        first = [
            span
            for name, spans in self._answers.items()
            if vote.weights.get(name, 0.0) > 0 and name not in vote.deferred
            for span in spans[document.id]
        ]
        sentences = document_sentences(document)
        kept = [(sentences[i][0].start, sentences[i][-1].end) for i in sentences_overlapping(sentences, first)]
        answered = {}
        for name in vote.deferred:
            spans = [s for s in self._answers[name][document.id] if any(a <= s.start < b for a, b in kept)]
            answered[name] = (member_tags(tokens, spans), token_scores(tokens, spans))
        return answered

    def report(
        self, vote: Vote, document_ids: Collection[str] | None = None, propagate: bool = False
    ) -> EvaluationReport:
        """The MEDDOCAN scores of ``vote`` on all the notes, or on those of ``document_ids``."""
        from anonimed.evaluate import score  # the scorer is only needed to tune

        wanted = None if document_ids is None else set(document_ids)
        gold = self.gold if wanted is None else [d for d in self.gold if d.id in wanted]
        return score(gold, self.predictions(vote, wanted, propagate), self.sentence_counts)
