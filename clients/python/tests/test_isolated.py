import os
import re

import pytest

from banking_sandbox import SandboxError


SEEN = []


def test_bank_is_an_isolated_sandbox_named_by_worker_and_run(bank):
    SEEN.append(bank.id)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    run_id = os.environ["BANKING_SANDBOX_RUN_ID"]
    assert bank.id.startswith(f"py-{worker}-{run_id}-")
    assert re.fullmatch(r"[a-z0-9][a-z0-9-]{0,62}", bank.id)
    assert bank.api_url.endswith(f"/sandboxes/{bank.id}/api/v1")
    assert bank.control_url.endswith(f"/sandboxes/{bank.id}/__sandbox")


def test_bank_lives_for_the_module_by_default(bank):
    assert SEEN == [bank.id]
    assert bank.id in [s["id"] for s in bank.sandboxes()]


def test_isolate_takes_seed_scenario_and_clock_and_with_disposes(banking_sandbox):
    with banking_sandbox.isolate(seed=7, scenario="happy-path", clock="2026-01-15T09:00:00.000Z") as world:
        assert world.clock()["now"] == "2026-01-15T09:00:00.000Z"
        assert world.clock()["frozen"] is True
        made = world.id
    assert made not in [s["id"] for s in banking_sandbox.sandboxes()]
    world.dispose()  # twice is done all the same


def test_the_root_disposes_nothing(banking_sandbox):
    banking_sandbox.dispose()
    with banking_sandbox as same:
        assert same is banking_sandbox
    assert banking_sandbox.health()["status"] == "ok"


def test_an_id_in_use_is_refused_and_replace_is_sent_only_when_asked(banking_sandbox, bank):
    with pytest.raises(SandboxError) as caught:
        banking_sandbox.isolate(id=bank.id)
    assert caught.value.status == 409
    assert {"id": bank.id} in sent_to_create(banking_sandbox)
    other = banking_sandbox.isolate()
    try:
        banking_sandbox.isolate(id=other.id, replace=True)
    except SandboxError:
        pass  # a sandbox that does not know `replace` refuses it; what was sent is the point here
    other.dispose()
    assert {"id": other.id, "replace": True} in sent_to_create(banking_sandbox)


def sent_to_create(root):
    # Other workers create sandboxes too: the newest hundred hold this test's.
    return [e["request"]["body"] for e in root.requests(method="POST", path="/__sandbox/sandboxes", limit=100)]


def test_sandboxes_lists_them_and_delete_sandbox_deletes_one(banking_sandbox):
    world = banking_sandbox.isolate()
    assert world.id in [s["id"] for s in banking_sandbox.sandboxes()]
    banking_sandbox.delete_sandbox(world.id)
    assert world.id not in [s["id"] for s in banking_sandbox.sandboxes()]
