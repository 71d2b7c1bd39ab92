def test_state_exports_and_imports(bank):
    made = bank.new_client()
    state = bank.export_state()
    bank.reset()
    assert made["clientId"] not in [c["clientId"] for c in bank.credentials(limit=100)["clients"]]
    bank.import_state(state)
    assert made["clientId"] in [c["clientId"] for c in bank.credentials(limit=100)["clients"]]


def test_health_and_metrics_are_the_process_s(bank):
    assert bank.health()["status"] == "ok"
    assert bank.metrics() is not None
