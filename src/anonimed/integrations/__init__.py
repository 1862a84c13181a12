"""Integrations of anonimed into other frameworks: :mod:`anonimed.integrations.spacy` (the ``anonimed`` pipeline
component).  Apache Spark lives in :mod:`anonimed.spark`.  Each module imports its framework, so importing this
package alone pulls in nothing."""
