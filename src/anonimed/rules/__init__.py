"""Rules people write: token sequence patterns in YAML files, run as one more detector (see ``docs/rules.md``).

``load_rules("default")`` gives the shipped Spanish and Catalan rules, ``load_rules(path)`` a user's file or folder;
the result is a :class:`RuleSet`, a detector like any other, and :func:`with_rules` adds rules to a model.  :func:`evaluate_rules` measures a rule set on annotated
notes, rule by rule, and :func:`judge_candidate` is the acceptance test of the refinement loop.
"""

from anonimed.rules.combined import WithRules, with_rules
from anonimed.rules.evaluation import Judgement, RulesReport, evaluate_rules, judge_candidate
from anonimed.rules.language import Rule, RuleError
from anonimed.rules.ruleset import DEFAULT_RULES_DIR, RuleSet, load_rules

__all__ = [
    "DEFAULT_RULES_DIR",
    "Judgement",
    "Rule",
    "RuleError",
    "RuleSet",
    "RulesReport",
    "WithRules",
    "evaluate_rules",
    "judge_candidate",
    "load_rules",
    "with_rules",
]
