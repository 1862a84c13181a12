"""The service's logging: uvicorn's own configuration, with every handler dropping the message and traceback of a
logged exception (they may quote a note's text) and keeping its type, and anonimed's messages beside uvicorn's."""

from __future__ import annotations

import copy
import logging
from typing import Any


class ExceptionTypeOnly(logging.Filter):
    """Replace a record's exception by its type's name: an error raised on a note may carry the note's text."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            kind = type(record.exc_info[1]).__name__
            record.msg = f"{record.getMessage()} [{kind}; message and traceback withheld: they may quote a note]"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True


def log_config(level: str = "info") -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for uvicorn: its default one, filtered, with the ``anonimed`` logger added."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"exception_type_only": {"()": ExceptionTypeOnly}}
    for handler in config["handlers"].values():
        handler["filters"] = ["exception_type_only"]
    config["loggers"]["anonimed"] = {"handlers": ["default"], "level": level.upper(), "propagate": False}
    return config
