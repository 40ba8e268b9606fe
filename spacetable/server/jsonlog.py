"""Structured logging: one JSON object per line on stderr (SRV-L1), with seat tokens redacted (SRV-A5).

Seat links keep their token in the URL fragment, which browsers never send, and pages hand it over on
the WebSocket; a token that still arrives in a URL (an old link, a hand-written client) is replaced by
``***`` in every log line, uvicorn's connection and access lines included.
"""

from __future__ import annotations

import json
import logging
import re
import time
from typing import Any

_STANDARD = set(vars(logging.LogRecord("x", 0, "x", 0, "x", None, None))) | {"message", "asctime", "taskName", "color_message"}


#: A token written ``token=T`` (query, fragment), ``token: T`` (a header, ``X-Seat-Token``) or ``"token": "T"``
#: (JSON, also escaped inside a logged frame).
_TOKEN = re.compile(r"""(token\\*["']?\s*[:=]\s*\\*["']?)[^&\s"'\\#;,)}]+""", re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` with every seat token replaced by ``***``."""
    return _TOKEN.sub(r"\1***", text) if "oken" in text or "OKEN" in text else text


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": redact(record.getMessage()),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                if isinstance(value, (int, float, bool, type(None))):
                    out[key] = value
                else:
                    out[key] = redact(value if isinstance(value, str) else repr(value))
        if record.exc_info:
            out["exc"] = redact(self.formatException(record.exc_info))
        return json.dumps(out, ensure_ascii=False)


def log_config(level: str) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` dict used for both spacetable and uvicorn loggers."""
    level = level.upper()
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {"default": handler},
        "loggers": {
            "spacetable": {"handlers": ["default"], "level": level, "propagate": False},
            "uvicorn": {"handlers": ["default"], "level": level, "propagate": False},
            "uvicorn.error": {"level": level},
            "uvicorn.access": {"handlers": ["default"], "level": "WARNING" if level != "DEBUG" else "DEBUG", "propagate": False},
        },
    }
