"""The transformation stage: operators (tag, redact, mask, hash, surrogate) applied to a document's PHI spans."""

from anonimed.transform.apply import Replacement, Transformed, apply_plan, covering_spans
from anonimed.transform.config import OperatorPlan, TransformConfig, build_config, load_settings, make_operator
from anonimed.transform.keys import Keyring, read_key
from anonimed.transform.operators import Hash, Mask, Operator, Redact, Surrogate, Tag
from anonimed.transform.surrogates import SurrogateContext, SurrogateOptions

__all__ = [
    "Hash",
    "Keyring",
    "Mask",
    "Operator",
    "OperatorPlan",
    "Redact",
    "Replacement",
    "Surrogate",
    "SurrogateContext",
    "SurrogateOptions",
    "Tag",
    "TransformConfig",
    "Transformed",
    "apply_plan",
    "build_config",
    "covering_spans",
    "load_settings",
    "make_operator",
    "read_key",
]
