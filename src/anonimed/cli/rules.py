"""``anonimed rules apply|eval|check|judge``: run, measure, check and refine rules (see docs/rules.md).

anonimed rules apply RULES IN_DIR OUT_DIR
anonimed rules eval RULES GOLD_DIR [--json FILE]
anonimed rules check RULES
anonimed rules judge CANDIDATE --base RULES --train DIR --validation DIR [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tqdm import tqdm

from anonimed.cli.options import add_encoding_options

if TYPE_CHECKING:
    from anonimed.document import Document
    from anonimed.rules import RuleSet

RULES_HELP = "a rule file (.yaml), a folder of them, or 'default' for the shipped set"


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "rules",
        help="apply, evaluate, check and refine hand-written rules (YAML)",
        description="Rules people write: token patterns in YAML files (docs/rules.md).",
    )
    actions = parser.add_subparsers(dest="rules_command", required=True, metavar="ACTION")

    apply = actions.add_parser(
        "apply",
        help="annotate every *.txt of a folder with the rules' spans (BRAT)",
        description="Reads every IN_DIR/*.txt and writes OUT_DIR/NAME.ann (BRAT) and a copy of NAME.txt.",
    )
    apply.add_argument("rules", metavar="RULES", help=RULES_HELP)
    apply.add_argument("in_dir", metavar="IN_DIR")
    apply.add_argument("out_dir", metavar="OUT_DIR")
    add_encoding_options(apply)
    apply.set_defaults(run=run_apply)

    evaluate = actions.add_parser(
        "eval",
        help="precision, recall and F1 of the rules on annotated notes, per type and per rule",
        description="Scores the rules on GOLD_DIR (BRAT): per type and overall, strict (same type and offsets) and "
        "overlap (same type, a character in common); each rule alone, with the matches it gets wrong.",
    )
    evaluate.add_argument("rules", metavar="RULES", help=RULES_HELP)
    evaluate.add_argument("gold_dir", metavar="GOLD_DIR", help="annotated notes (BRAT .txt + .ann)")
    evaluate.add_argument("--json", type=Path, default=None, help="write the figures and wrong matches to this file")
    evaluate.set_defaults(run=run_eval)

    check = actions.add_parser(
        "check",
        help="read the rule files, report any error, and test every rule on its examples",
        description="Reads RULES (a clear error names the file, the rule and the problem) and runs each rule alone "
        "on each of its examples: in an example, [brackets] mark what the rule must find, nothing else.",
    )
    check.add_argument("rules", metavar="RULES", help=RULES_HELP)
    check.set_defaults(run=run_check)

    judge = actions.add_parser(
        "judge",
        help="the acceptance test of a candidate rule: keep, discard or refine",
        description="Adds the rules of CANDIDATE to --base and compares strict figures on --train and --validation: "
        "keep if F1 rises on both; discard if validation recall falls; refine if validation precision falls.",
    )
    judge.add_argument("candidate", metavar="CANDIDATE", help="the rule file holding the candidate rule(s)")
    judge.add_argument("--base", default="default", help="the rules it joins (default: the shipped set)")
    judge.add_argument("--train", type=Path, required=True, help="the labelled training sample (BRAT)")
    judge.add_argument("--validation", type=Path, required=True, help="the labelled validation sample (BRAT)")
    judge.add_argument("--json", type=Path, default=None, help="write the decision and figures to this file")
    judge.set_defaults(run=run_judge)


def run_apply(arguments: argparse.Namespace) -> int:
    from anonimed.predict import predict_dir
    from anonimed.rules import load_rules

    summary = predict_dir(
        load_rules(arguments.rules),
        arguments.in_dir,
        arguments.out_dir,
        progress=lambda paths: tqdm(paths, desc="rules", unit="doc", file=sys.stderr, disable=None),
        encoding=arguments.encoding,
        errors=arguments.errors,
    )
    for path, problem in summary.failures.items():
        print(f"failed: {path}: {problem}", file=sys.stderr)
    print(summary.line())
    return 1 if summary.failures else 0


def _read_gold(directory: Path) -> list[Document]:
    from anonimed.formats.brat import read_brat_dir

    documents = read_brat_dir(directory)
    if not documents:
        raise ValueError(f"{directory}: no annotated note (NAME.txt with NAME.ann)")
    return documents


def run_eval(arguments: argparse.Namespace) -> int:
    from anonimed.formats.textio import write_text_atomic
    from anonimed.rules import evaluate_rules, load_rules

    report = evaluate_rules(load_rules(arguments.rules), _read_gold(arguments.gold_dir))
    print(report.table())
    if arguments.json is not None:
        write_text_atomic(arguments.json, json.dumps(report.to_json(), ensure_ascii=False, indent=1) + "\n")
    return 0


EXAMPLE_MARK = re.compile(r"\[([^\[\]]*)\]")


def run_check(arguments: argparse.Namespace) -> int:
    from anonimed.rules import load_rules
    from anonimed.rules.ruleset import RuleSet

    rules = load_rules(arguments.rules)
    failures = 0
    examples = 0
    for rule in rules:
        alone = RuleSet([rule], rules.gazetteers, rules.tagger)
        for example in rule.examples:
            examples += 1
            problem = _example_problem(alone, example)
            if problem:
                failures += 1
                print(f"{rule.origin}: rule {rule.name!r}: {problem}", file=sys.stderr)
    print(f"{len(rules)} rules read; {examples - failures} of {examples} examples as expected")
    return 1 if failures else 0


def _example_problem(alone: RuleSet, example: str) -> str:
    """What is wrong with the rule's matches on one example ('' when it finds exactly the bracketed texts)."""
    from anonimed.document import Document

    text = EXAMPLE_MARK.sub(lambda m: m.group(1), example)
    wanted, shift = [], 0
    for match in EXAMPLE_MARK.finditer(example):
        start = match.start() - shift
        wanted.append(text[start : start + len(match.group(1))])
        shift += 2
    document = Document("example", text)
    found = [document.span_text(span) for span in alone.detect(document)]
    if found == wanted:
        return ""
    return f"example {example!r}: expected {wanted}, found {found}"


def run_judge(arguments: argparse.Namespace) -> int:
    from anonimed.formats.textio import write_text_atomic
    from anonimed.rules import RuleSet, judge_candidate, load_rules
    from anonimed.rules.ruleset import rule_files

    # Read together, so that the candidate may use the base's gazetteers.
    everything = load_rules([arguments.base, arguments.candidate])
    candidate_files = {str(path) for path in rule_files(arguments.candidate)}
    candidates = [rule for rule in everything if rule.origin in candidate_files]
    base = RuleSet([r for r in everything if r.origin not in candidate_files], everything.gazetteers, everything.tagger)
    judgement = judge_candidate(base, candidates, _read_gold(arguments.train), _read_gold(arguments.validation))
    for sample in ("train", "validation"):
        before, after = judgement.before[sample], judgement.after[sample]
        print(
            f"{sample:10} P {before['precision']:.3f} → {after['precision']:.3f}   R {before['recall']:.3f} → "
            f"{after['recall']:.3f}   F1 {before['f1']:.3f} → {after['f1']:.3f}"
        )
    print(f"{judgement.decision}: {judgement.reason}")
    if arguments.json is not None:
        write_text_atomic(arguments.json, json.dumps(judgement.to_json(), indent=1) + "\n")
    return 0
