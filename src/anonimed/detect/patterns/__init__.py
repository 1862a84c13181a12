"""Pattern recognizers for PHI with a fixed form: contact details, identifiers, dates, ages, sex, postal codes.

``PatternDetector`` is a :class:`~anonimed.detect.base.Detector`; ``RECOGNIZERS`` and ``recognizer_labels()`` list
the recognizers (name and MEDDOCAN label), so a tagger can turn each one's matches into a feature.
"""

from anonimed.detect.patterns.detector import RECOGNIZERS, PatternDetector, recognizer_labels, resolve, select
from anonimed.detect.patterns.recognizer import Recognizer

__all__ = ["RECOGNIZERS", "PatternDetector", "Recognizer", "recognizer_labels", "resolve", "select"]
