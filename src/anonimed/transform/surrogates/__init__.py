"""Realistic surrogates for every PHI type of the schema (see :func:`surrogate`)."""

from anonimed.transform.surrogates.context import SurrogateContext, SurrogateOptions
from anonimed.transform.surrogates.generate import GENERATORS, KEPT_TYPES, surrogate

__all__ = ["GENERATORS", "KEPT_TYPES", "SurrogateContext", "SurrogateOptions", "surrogate"]
