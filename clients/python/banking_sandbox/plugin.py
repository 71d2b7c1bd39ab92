"""The pytest plugin: `banking_sandbox`, the connected root, and `bank`, an isolated sandbox of its own.

Loaded through the `pytest11` entry point once the package is installed. The URL comes from
`--banking-sandbox-url`, else `$BANKING_SANDBOX_URL`, else http://127.0.0.1:4010; the control token from
`$BANKING_SANDBOX_TOKEN`. `bank` lives for a test module unless the ini option `banking_sandbox_scope` says
`function` or `session`.
"""

from __future__ import annotations

import itertools
import os
import re
import secrets
from typing import Iterator

import pytest

from .errors import SandboxUnreachable
from .sandbox import Sandbox, connect

SCOPES = ("function", "module", "session")
# One run of pytest, workers included: the controller picks it and its workers inherit it. A killed run's
# sandboxes carry their own run's id, so the next run never meets them.
RUN_ID_VARIABLE = "BANKING_SANDBOX_RUN_ID"
_serial = itertools.count(1)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("banking-sandbox")
    group.addoption(
        "--banking-sandbox-url",
        dest="banking_sandbox_url",
        default=None,
        help="the sandbox's URL (wins over $BANKING_SANDBOX_URL; default http://127.0.0.1:4010)",
    )
    parser.addini(
        "banking_sandbox_scope",
        "how long one `bank` lives: function, module (default) or session",
        default="module",
    )


def pytest_configure(config: pytest.Config) -> None:
    # The controller (or a run without xdist) picks a new one, whatever an earlier run left in the environment.
    if "PYTEST_XDIST_WORKER" not in os.environ:
        os.environ[RUN_ID_VARIABLE] = secrets.token_hex(4)
    scope = _scope(config)
    if scope not in SCOPES:
        raise pytest.UsageError(f"banking_sandbox_scope = {scope}: must be one of {', '.join(SCOPES)}")


def _scope(config: pytest.Config) -> str:
    return str(config.getini("banking_sandbox_scope")).strip() or "module"


def _bank_scope(fixture_name: str, config: pytest.Config) -> str:
    return _scope(config)


def sandbox_id(worker: str, run_id: str, name: str, serial: int) -> str:
    """An isolated sandbox's id: the xdist worker, the run, a serial number and what it is for, in 63 characters.

    The sandbox takes lowercase letters, digits and dashes.
    """
    head = f"py-{worker}-{run_id}-{serial}"
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return f"{head}-{slug}"[:63].rstrip("-")


@pytest.fixture(scope="session")
def banking_sandbox(pytestconfig: pytest.Config) -> Sandbox:
    """The connected root sandbox, for the session."""
    url = pytestconfig.getoption("banking_sandbox_url")
    try:
        return connect(url)
    except SandboxUnreachable as error:
        pytest.fail(str(error), pytrace=False)


@pytest.fixture(scope=_bank_scope)
def bank(banking_sandbox: Sandbox, request: pytest.FixtureRequest) -> Iterator[Sandbox]:
    """An isolated sandbox: its own state, clock, scenario, journal and webhooks; deleted afterwards."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    run_id = os.environ.get(RUN_ID_VARIABLE) or secrets.token_hex(4)
    node = request.node
    name = node.name.rsplit("/", 1)[-1].replace(".py", "") if node is not None else "session"
    sandbox = banking_sandbox.isolate(id=sandbox_id(worker, run_id, name, next(_serial)))
    try:
        yield sandbox
    finally:
        sandbox.dispose()
