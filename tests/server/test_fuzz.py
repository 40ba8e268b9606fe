"""Fuzzing the API (issue 9, tests): a schema-driven fuzzer over the OpenAPI document (schemathesis, bounded
examples, valid and invalid data) and a hypothesis fuzzer of WebSocket messages. The properties: no 5xx, every
refusal in the one error shape (SRV-E1) without Python exception text, and a socket that stays usable."""

from __future__ import annotations

import atexit
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import Failure

from spacetable.server.app import create_app

from .conftest import create, join, lenient_limits

_TMP = Path(tempfile.mkdtemp(prefix="spacetable-fuzz-"))
atexit.register(shutil.rmtree, _TMP, True)
APP = create_app(f"sqlite:///{_TMP / 'fuzz.sqlite3'}", ai_workers=0, limits=lenient_limits(max_body=64 * 1024))
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP)


def one_error_shape(ctx: Any, response: Any, case: Any) -> bool | None:
    """A 4xx JSON answer is ``{"error": {"status", "code", "message"[, "rule"]}}`` and shows no exception text."""
    if 400 <= response.status_code < 500:
        body = json.loads(response.content)
        if set(body) != {"error"} or not {"status", "code", "message"} <= set(body["error"]) \
                or body["error"]["status"] != response.status_code:
            raise Failure(operation=case.operation.label, title="Not the API's error shape", message=response.text[:300],
                          code="error_shape")
        for marker in ("Traceback", "Error(", "site-packages"):
            if marker in response.text:
                raise Failure(operation=case.operation.label, title="Exception text in an answer",
                              message=response.text[:300], code="exception_text")
    return None


@SCHEMA.parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True, database=None)
def test_api_fuzz(case: Any) -> None:
    """Every operation of the OpenAPI document, with generated valid and invalid requests: no server error, and
    every refusal in the documented shape."""
    case.call_and_validate(checks=[not_a_server_error, one_error_shape])


# ------------------------------------------------------------------------------------------ WebSocket
JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=False, allow_infinity=False),
                      st.text(max_size=20))
JSON = st.recursive(JSON_LEAF, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=8), inner, max_size=4)), max_leaves=12)
MESSAGE = st.fixed_dictionaries(
    {"type": st.sampled_from(["action", "undo", "undo_accept", "undo_decline", "ping", "auth", "dance"])},
    optional={"version": JSON, "action": JSON, "id": JSON, "token": JSON, "seat": JSON})
FRAME = st.one_of(
    MESSAGE.map(json.dumps),
    JSON.map(json.dumps),
    st.text(max_size=60),
    st.binary(max_size=60),
    st.sampled_from(['{"type": "action", "version": NaN}', '{"id": Infinity}', '{"type": "\\ud800"}', "[" * 5000,
                     '{"type": "action", "version": 0, "action": {"type": "take", "heap": 1e999}}']),
)


@pytest.mark.usefixtures("nim")
def test_websocket_fuzz(client: TestClient) -> None:
    """Random frames (JSON of any shape, text, binary, hostile numbers and nesting) on a seat's socket: each one
    answered by a well-formed message or by nothing (an action that played), never a dropped connection."""
    data = create(client, "nim", config={"heaps": 5, "size": 30}, join_seat=0)
    mid, t0 = data["match"]["id"], data["token"]
    join(client, mid, 1)
    with client.websocket_connect(f"/ws/matches/{mid}?seat=0&token={t0}") as ws:
        assert ws.receive_json()["type"] == "snapshot"

        @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True, database=None)
        @given(FRAME)
        def one_frame(frame: str | bytes) -> None:
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
            ws.send_json({"type": "ping", "id": "fence"})
            while True:  # everything up to the fence answer is a well-formed message
                msg = ws.receive_json()
                assert isinstance(msg, dict) and msg.get("type") in ("error", "pong", "event", "snapshot", "undo"), msg
                if msg["type"] == "error":
                    err = msg["error"]
                    assert {"status", "code", "message"} <= set(err) and 400 <= err["status"] < 500, msg
                    assert "Traceback" not in err["message"] and "Error(" not in err["message"], msg
                if msg == {"type": "pong", "id": "fence"}:
                    return

        one_frame()
