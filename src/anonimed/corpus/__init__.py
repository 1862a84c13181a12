"""Corpus building for a new hospital: rank unlabelled notes so that annotators label the ones that teach most."""
