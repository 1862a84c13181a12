"""Which operator handles which PHI type: from CLI-style specs (``FECHAS=mask:keep``) and/or a YAML or TOML file.

A spec is ``OPERATOR[:ARGUMENT]``: ``tag``, ``tag:coarse``, ``redact``, ``redact:[XXX]``, ``mask``, ``mask:keep``
(keep separators), ``mask:#``, ``hash``, ``hash:16`` (hex digits), ``surrogate``.  A target is a fine type
(``FECHAS``), a group of the schema (``NAME``, ``ID``...) or a coarse class (``DIR``, ``INST``...); the most
specific target wins, then the default.  A file looks like::

    default: surrogate
    sex: keep            # or swap
    kinship: swap        # or keep: relatives' kinship words (madre, hijos) stay as written
    operators:
      FECHAS: mask:keep
      ID: {operator: hash, length: 16}
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from anonimed.schema import COARSE_CLASSES, GROUPS, PHI_TYPES, UnknownLabelError, canonical_label
from anonimed.transform.operators import Hash, Mask, Operator, Redact, Surrogate, Tag
from anonimed.transform.surrogates import SurrogateOptions

OPERATOR_NAMES = ("tag", "redact", "mask", "hash", "surrogate")


@dataclass(frozen=True)
class OperatorPlan:
    default: Operator = field(default_factory=Surrogate)
    by_target: Mapping[str, Operator] = field(default_factory=dict)

    def operator_for(self, label: str) -> Operator:
        label = canonical_label(label)
        kind = PHI_TYPES[label]
        for target in (label, kind.group, kind.coarse):
            if target is not None and target in self.by_target:
                return self.by_target[target]
        return self.default


@dataclass(frozen=True)
class TransformConfig:
    plan: OperatorPlan = field(default_factory=OperatorPlan)
    options: SurrogateOptions = field(default_factory=SurrogateOptions)


def make_operator(spec: str | Mapping[str, Any], key: bytes | None = None) -> Operator:
    """The operator a spec names (``"mask:keep"`` or ``{"operator": "mask", "keep_separators": True}``)."""
    if isinstance(spec, Mapping):
        settings = dict(spec)
        name = str(settings.pop("operator", ""))
        argument = None
    else:
        name, _, argument = str(spec).partition(":")
        settings = {}
    name = name.strip().lower()
    try:
        if name == "tag":
            coarse = settings.pop("coarse", argument == "coarse")
            if argument not in (None, "", "coarse", "fine"):
                raise ValueError(f"tag takes 'fine' or 'coarse', got {argument!r}")
            return Tag(coarse=bool(coarse), **settings)
        if name == "redact":
            return Redact(marker=settings.pop("marker", argument or ""), **settings)
        if name == "mask":
            if argument == "keep":
                settings["keep_separators"] = True
            elif argument:
                settings["character"] = argument
            return Mask(**settings)
        if name == "hash":
            if argument:
                settings["length"] = int(argument)
            if key is None:
                raise ValueError("the hash operator needs a secret key (--key FILE)")
            return Hash(key=key, **settings)
        if name == "surrogate":
            return Surrogate(**settings)
    except TypeError as error:  # an unknown setting in a mapping spec
        raise ValueError(f"invalid settings for operator {name!r}: {error}") from None
    raise ValueError(f"unknown operator {name!r}; choose one of {', '.join(OPERATOR_NAMES)}")


def parse_target(target: str) -> str:
    """A fine type (aliases allowed), a group or a coarse class, as the plan keys it."""
    target = target.strip().upper()
    if target in GROUPS or target in COARSE_CLASSES:
        return target
    try:
        return canonical_label(target)
    except UnknownLabelError:
        raise ValueError(
            f"unknown operator target {target!r}: use a PHI type, a group ({', '.join(GROUPS)}) "
            f"or a coarse class ({', '.join(COARSE_CLASSES)})"
        ) from None


def build_config(
    specs: Iterable[str] = (), settings: Mapping[str, Any] | None = None, key: bytes | None = None
) -> TransformConfig:
    """A configuration from file ``settings`` (see the module doc), then CLI ``specs`` (``OPERATOR`` for every type,
    ``TARGET=OPERATOR`` for one), the later overriding the earlier."""
    settings = dict(settings or {})
    default: Operator = Surrogate()
    by_target: dict[str, Operator] = {}
    if "default" in settings:
        default = make_operator(settings.pop("default"), key)
    operators = settings.pop("operators", {}) or {}
    if not isinstance(operators, Mapping):
        raise ValueError("'operators' must map PHI types or groups to operators")
    for target, spec in operators.items():
        by_target[parse_target(str(target))] = make_operator(spec, key)
    options = SurrogateOptions(sex=str(settings.pop("sex", "keep")), kinship=str(settings.pop("kinship", "swap")))
    if settings:
        raise ValueError(
            f"unknown configuration keys: {', '.join(sorted(settings))} (known: default, operators, sex, kinship)"
        )
    for spec in specs:
        target, separator, operator = spec.partition("=")
        if separator:
            by_target[parse_target(target)] = make_operator(operator, key)
        else:
            default, by_target = make_operator(spec, key), {}
    return TransformConfig(OperatorPlan(default, by_target), options)


def load_settings(path: str | Path) -> dict[str, Any]:
    """The settings of a ``.yaml``/``.yml``, ``.toml`` or ``.json`` configuration file."""
    path = Path(path)
    try:
        content = path.read_text(encoding="utf-8")
        if path.suffix.lower() == ".toml":
            settings = tomllib.loads(content)
        elif path.suffix.lower() == ".json":
            settings = json.loads(content)
        else:
            settings = yaml.safe_load(content) or {}
    except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError) as error:
        raise ValueError(f"{path}: cannot read the configuration: {error}") from None
    if not isinstance(settings, dict):
        raise ValueError(f"{path}: the configuration must be a mapping (default, operators, sex, kinship)")
    return settings
