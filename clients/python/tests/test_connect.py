import os
import socket

import pytest

import banking_sandbox
from banking_sandbox import SandboxError, SandboxUnreachable, connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_nothing_listening_raises_a_connection_error_naming_the_url_and_how_to_start_one():
    url = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(SandboxUnreachable) as caught:
        connect(url)
    assert isinstance(caught.value, ConnectionError)
    assert caught.value.url == url
    message = str(caught.value)
    assert url in message
    for way in ("npx banking-sandbox", "npm start", "docker run"):
        assert way in message


def test_the_url_defaults_to_the_environment_and_any_door_of_it_names_the_sandbox(monkeypatch):
    url = os.environ["BANKING_SANDBOX_URL"]
    root = connect()
    assert root.url == url.rstrip("/")
    assert root.id is None
    assert root.api_url == root.url + "/api/v1"
    assert root.control_url == root.url + "/__sandbox"
    assert connect(url + "/api/v1").url == root.url
    monkeypatch.delenv("BANKING_SANDBOX_URL")
    assert connect(url).health()["status"] == "ok"


def test_a_refused_call_raises_sandbox_error_with_the_envelopes_status_message_and_errors(bank):
    with pytest.raises(SandboxError) as caught:
        bank.new_client(balance=-5)
    error = caught.value
    assert error.status == 400
    assert error.message == "balance is invalid: must be at least 0"
    assert error.errors == [{"field": "balance", "message": "must be at least 0"}]


def test_the_control_token_is_sent_as_x_sandbox_token(bank):
    with_token = banking_sandbox.Sandbox(bank.url, token="a-token", id=bank.id)
    with_token.clock()
    [entry] = bank.requests(path="/__sandbox/clock", limit=1)
    assert entry["request"]["headers"]["x-sandbox-token"] in ("a-token", "****")


def test_the_package_exports_the_names_a_suite_relies_on():
    for name in ("connect", "Sandbox", "SandboxError", "SandboxUnreachable", "VerificationError", "OPERATIONS"):
        assert hasattr(banking_sandbox, name)
    assert issubclass(banking_sandbox.VerificationError, AssertionError)
