"""Token features for the sequence and window taggers: one list of feature strings per token.

A token's own features describe its form (word, affixes, shape), its lexicon memberships (Spanish word frequency,
the given-name and surname lists of Faker's ``es_ES`` provider), its layout (header key of its line, place in the
line and in the note, spacing around it, runs of capitalised words), what the pattern recognizers say about it
(``hints``: their spans as BIOES positions) and, optionally, which k-means clusters of our word vectors it falls in.
A window of neighbours' features is then added, prefixed by their offset (``-1:w=de``).  The lexicons come from
installed packages and are looked up at run time, so a model file never carries a copy of them; the clusters are a
file of the model folder.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Container, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

from anonimed.detect.base import Detector
from anonimed.document import Document, Span
from anonimed.embeddings import WordClusters
from anonimed.text.tagging import Scheme, repair, spans_to_tags, tags_to_spans
from anonimed.text.tokenize import Token, tokenize

# Lower-case words that may sit between two capitalised words of one name or place (``García de la Fuente``).
_CONNECTORS = frozenset({"de", "del", "la", "las", "los", "y", "i", "el", "d", "san", "santa"})
_SHAPE_RUNS = re.compile(r"(.)\1+")
# A word's features that stay its own: its neighbours do not get them.
_OWN_ONLY = ("p3=", "s3=", "s4=", "len=")


@dataclass(frozen=True)
class FeatureConfig:
    """Which feature groups to compute; stored in ``model.json`` so that a model is always fed the same features."""

    window: int = 2
    word_frequency: bool = True
    name_lists: bool = True
    hints: bool = True
    layout: bool = True
    clusters: bool = False  # k-means clusters of our word vectors (a WordClusters file beside the model)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> FeatureConfig:
        unknown = set(values) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"unknown feature settings {sorted(unknown)}; known: {sorted(cls.__dataclass_fields__)}")
        return cls(**values)


@lru_cache(maxsize=1)
def _name_lists() -> tuple[frozenset[str], frozenset[str]]:
    """Given names and surnames of Faker's es_ES person provider, lower-cased, one word each."""
    from faker.providers.person.es_ES import Provider

    def words(names: Sequence[str]) -> frozenset[str]:
        return frozenset(word.lower() for name in names for word in name.split() if len(word) > 2)

    given = words([*Provider.first_names_male, *Provider.first_names_female])
    return given, words(Provider.last_names) - given


@lru_cache(maxsize=200_000)
def _frequency_bucket(word: str) -> str:
    from wordfreq import zipf_frequency

    return str(int(zipf_frequency(word, "es")))


def _strip_accents(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


@lru_cache(maxsize=200_000)
def _word_features(word: str) -> tuple[str, ...]:
    """Features that depend on the token's text alone (cached: most words repeat)."""
    lower = word.lower()
    features = [f"w={lower}"]
    if word.isalpha():
        shape = _SHAPE_RUNS.sub(r"\1\1", "".join("X" if c.isupper() else "x" for c in word))
        features.append(f"sh={shape}")
        if len(word) > 3:
            features += [f"p3={lower[:3]}", f"s3={lower[-3:]}", f"s4={lower[-4:]}"]
        if word[0].isupper():
            features.append("T" if word[1:].islower() or len(word) == 1 else "U")
        features.append(f"len={min(len(word), 8)}")
    elif word.isdecimal():
        features += ["D", f"dl={min(len(word), 12)}"]
        if len(word) <= 2:
            features.append(f"dv={min(int(word), 40) // 10 if int(word) > 12 else 'le12'}")
    else:
        features.append("P")
    return tuple(features)


class FeatureExtractor:
    """Feature strings for each token of a text under a :class:`FeatureConfig`."""

    def __init__(
        self,
        config: FeatureConfig = FeatureConfig(),
        clusters: WordClusters | None = None,
        vocabulary: Container[str] | None = None,
    ) -> None:
        if config.clusters and clusters is None:
            raise ValueError("these features use word clusters, but none were given")
        self.config = config
        self._clusters = clusters if config.clusters else None
        self.vocabulary = vocabulary
        self._given, self._surnames = _name_lists() if config.name_lists else (frozenset(), frozenset())
        # What a neighbour's features are prefixed with, by offset: -2:, -1:, +1:, +2:.
        self._prefixes = {offset: f"{offset:+d}:" for offset in range(-config.window, config.window + 1) if offset != 0}
        # Most words repeat: their own features and the prefixed copies they lend to neighbours are built once.  Kept
        # in tuples, which the garbage collector soon stops tracking: a dict a word (15k in 250 notes) stayed tracked,
        # and every full collection went through them all.
        self._lexical = lru_cache(maxsize=200_000)(self._lexical_features)

    def _lexicon_features(self, word: str) -> list[str]:
        if not word.isalpha():
            return []
        features = []
        lower = word.lower()
        if self.config.word_frequency:
            features.append(f"zf={_frequency_bucket(lower)}")
        if self.config.name_lists:
            if lower in self._given or _strip_accents(lower) in self._given:
                features.append("GN")
            if lower in self._surnames:
                features.append("SN")
        if self._clusters is not None:
            features += [
                f"c{size}={cluster}" for size, cluster in zip(self._clusters.sizes, self._clusters.clusters(word))
            ]
        return features

    def _lexical_features(self, word: str) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
        """A word's own features, and what it lends at each window offset, in the order of ``_prefixes`` (affixes
        and length stay its own)."""
        own = (*_word_features(word), *self._lexicon_features(word))
        lent = [f for f in own if not f.startswith(_OWN_ONLY)]
        return self._known(own), tuple(self._known(prefix + f for f in lent) for prefix in self._prefixes.values())

    def restricted_to(self, vocabulary: Container[str]) -> FeatureExtractor:
        """This extractor, leaving out the features that are not in ``vocabulary``: a tagger's, which ignores the
        features it has no weight for (a fifth of a note's: most neighbours' words and word pairs), so that they are
        neither built nor handed over."""
        return FeatureExtractor(self.config, self._clusters, vocabulary)

    def _known(self, features: Iterable[str]) -> tuple[str, ...]:
        vocabulary = self.vocabulary
        return tuple(features) if vocabulary is None else tuple(f for f in features if f in vocabulary)

    def features(self, text: str, tokens: Sequence[Token], hints: Sequence[Span] = ()) -> list[list[str]]:
        """One feature list per token: its own features, then its neighbours' (``-2:``, ``-1:``, ``+1:``, ``+2:``)."""
        lexical = [self._lexical(t.text) for t in tokens]
        own = [["bias", *word_own] for word_own, _ in lexical]
        if self.config.layout:
            for feats, layout in zip(own, _layout_features(text, tokens)):
                feats.extend(layout)
        hint_tags = spans_to_tags(tokens, hints, "BIOES") if self.config.hints and hints else None
        if hint_tags is not None:
            for feats, tag in zip(own, hint_tags):
                if tag != "O":
                    feats.append(f"pt={tag}")
        # The neighbours' features, one column per offset (a column lists, for each token, what its neighbour at that
        # offset lends it, or the padding past the note's edge), added column by column: no index arithmetic per token.
        count = len(tokens)
        for position, (offset, prefix) in enumerate(self._prefixes.items()):
            padding = (f"{prefix}PAD",)
            lent = [word_lent[position] for _, word_lent in lexical]
            if hint_tags is not None:
                for neighbour, tag in enumerate(hint_tags):
                    if tag != "O":
                        lent[neighbour] = (*lent[neighbour], f"{prefix}pt={tag}")
            if offset < 0:
                column = [padding] * min(-offset, count) + lent[: max(count + offset, 0)]
            else:
                column = lent[offset:] + [padding] * min(offset, count)
            for feats, neighbour_features in zip(own, column):
                feats.extend(neighbour_features)
        vocabulary = self.vocabulary
        for index, (first, second) in enumerate(itertools.pairwise(t.text.lower() for t in tokens)):
            before, after = f"bi-=w={first}|w={second}", f"bi+=w={first}|w={second}"
            if vocabulary is None or before in vocabulary:
                own[index + 1].append(before)
            if vocabulary is None or after in vocabulary:
                own[index].append(after)
        return own


_SINCE_COLON = tuple(f"sc={n}" for n in range(5))


def _layout_features(text: str, tokens: Sequence[Token]) -> list[list[str]]:
    """Header keys, place in the line and the note, spacing and capitalised runs, for every token."""
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    total_lines = len(line_starts)
    text_length = len(text)
    result: list[list[str]] = []
    line = -1
    next_line_start = 0
    line_key = previous_line_key = ""
    key_features: tuple[str, ...] = ()
    line_features: tuple[str, ...] = ()
    since_colon = 0
    line_tokens: list[int] = []

    def describe_line() -> tuple[str, ...]:
        # What every token of the line shares: computed when the line starts and when its key appears.
        line_end = text.find("\n", line_starts[line])
        length = (text_length if line_end < 0 else line_end) - line_starts[line]
        shared = [f"ln={min(line, 12)}", f"le={min(total_lines - 1 - line, 3)}", "short" if length < 80 else "long"]
        if line_key:
            shared.append(f"lk={line_key}")
        if previous_line_key:
            shared.append(f"pk={previous_line_key}")
        return tuple(shared)

    for index, token in enumerate(tokens):
        if token.start >= next_line_start:
            if line_tokens:
                result[line_tokens[-1]].append("EOL")
            while line + 1 < total_lines and line_starts[line + 1] <= token.start:
                line += 1
            next_line_start = line_starts[line + 1] if line + 1 < total_lines else text_length + 1
            previous_line_key, line_key, key_features, since_colon, line_tokens = line_key, "", (), 0, []
            line_features = describe_line()
        feats = list(line_features)
        if not line_tokens:
            feats.append("BOL")
        line_tokens.append(index)
        if key_features:
            feats.extend(key_features)
            feats.append(_SINCE_COLON[min(since_colon, 4)])
        if token.start > 0 and not text[token.start - 1].isspace():
            feats.append("glued")
        if token.end < text_length and not text[token.end].isspace():
            feats.append("glued+")
        result.append(feats)
        since_colon += 1
        if token.text == ":" and len(line_tokens) > 1:
            words = [tokens[i].text.lower() for i in line_tokens[-4:-1] if tokens[i].text.isalpha()]
            key_features = (f"k={words[-1] if words else '#'}",)
            since_colon = 0
            if not line_key and len(line_tokens) <= 8:
                line_key = " ".join(words[-2:]) if words else "#"
                line_features = describe_line()
    if line_tokens:
        result[line_tokens[-1]].append("EOL")
    for first, last in _capitalised_runs(tokens):
        length = last - first + 1
        run_length = f"crl={min(length, 5)}"
        for index in range(first, last + 1):
            position = "S" if length == 1 else "B" if index == first else "E" if index == last else "I"
            result[index] += [f"cr={position}", run_length]
    return result


def _capitalised_runs(tokens: Sequence[Token]) -> list[tuple[int, int]]:
    """Runs of capitalised words (first and last token index), bridged by name connectors like ``de la``."""
    runs = []
    index = 0
    count = len(tokens)
    while index < count:
        if not (tokens[index].text[0].isupper() and tokens[index].text.isalpha()):
            index += 1
            continue
        first = last = index
        probe = index + 1
        while probe < count:
            word = tokens[probe].text
            if word[0].isupper() and word.isalpha():
                last = probe
                probe += 1
            elif word in _CONNECTORS or word == "-":
                probe += 1
            else:
                break
        runs.append((first, last))
        index = last + 1
    return runs


class TokenTagger(ABC):
    """A detector that tags tokens from their features: the part the CRF and the window classifier share.

    ``hint_detector`` (the pattern recognizers) supplies the ``pt=`` features; its own spans are not returned here
    (the resolver merges them).  Subclasses implement :meth:`tag`.
    """

    name: str = "tagger"

    def __init__(self, extractor: FeatureExtractor, scheme: Scheme, hint_detector: Detector | None = None) -> None:
        if extractor.config.hints and hint_detector is None:
            raise ValueError(f"{type(self).__name__}: its features use pattern hints, but no hint detector was given")
        self.extractor = extractor
        self.scheme = scheme
        self.hint_detector = hint_detector if extractor.config.hints else None

    def detect(self, document: Document) -> list[Span]:
        tokens = tokenize(document.text)
        if not tokens:
            return []
        tags, scores = self.tag(self.extractor.features(document.text, tokens, hints_for(self.hint_detector, document)))
        return tags_to_spans(tokens, repair(tags, self.scheme), scores, source=self.name)

    @abstractmethod
    def tag(self, features: list[list[str]]) -> tuple[list[str], list[float]]:
        """The tag of each token and the model's confidence in it."""


def hints_for(hint_detector: Detector | None, document: Document) -> list[Span]:
    return hint_detector.detect(document) if hint_detector is not None else []


def training_sequences(
    documents: Iterable[Document], extractor: FeatureExtractor, scheme: Scheme, hint_detector: Detector | None
) -> Iterator[tuple[list[list[str]], list[str]]]:
    """Features and gold tags of each annotated document, as the taggers learn from them."""
    for document in documents:
        tokens = tokenize(document.text)
        if tokens:
            hints = hints_for(hint_detector if extractor.config.hints else None, document)
            yield extractor.features(document.text, tokens, hints), spans_to_tags(tokens, document.spans, scheme)
