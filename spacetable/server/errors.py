"""The one error shape of the API: ``{"error": {"status", "code", "message", "rule"?}}`` (SRV-E1).

Every refusal, REST or WebSocket, has this shape; messages are written for the client and never
carry Python exception text, file paths or the content of server files.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """An error for the client: HTTP-like ``status``, a ``code`` and, for rule breaks, the rule id."""

    def __init__(self, status: int, code: str, message: str, rule: str | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.rule = rule
        self.headers = headers

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "code": self.code, "message": self.message}
        if self.rule:
            out["rule"] = self.rule
        return out


#: The ``code`` of the plain HTTP errors (unknown route, wrong method ...).
HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
              406: "not_acceptable", 408: "timeout", 409: "conflict", 413: "too_large", 415: "unsupported_media_type",
              422: "bad_request", 429: "rate_limited", 500: "internal_error", 503: "unavailable"}


def error_body(status: int, code: str, message: str) -> dict[str, Any]:
    return {"error": {"status": status, "code": code, "message": message}}
