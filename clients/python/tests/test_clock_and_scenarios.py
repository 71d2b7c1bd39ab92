from datetime import datetime


def at(iso: str) -> datetime:
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))


def test_the_clock_freezes_and_advances(bank):
    bank.freeze_clock()
    before = bank.clock()
    assert before["frozen"] is True
    bank.advance_clock(60_000)
    after = bank.clock()
    assert (at(after["now"]) - at(before["now"])).total_seconds() == 60
    bank.freeze_clock(False)
    assert bank.clock()["frozen"] is False


FAIL_91 = {"fail": {"errorCode": "91", "errorMessage": "Beneficiary Bank not available"}}


def test_scenarios_by_name_by_dict_with_rules_and_back(bank):
    names = [s["name"] for s in bank.scenarios()]
    assert "flaky-bank" in names
    bank.set_scenario("flaky-bank")
    assert bank.scenario()["name"] == "flaky-bank"
    mine = {"name": "mine", "description": "Transfers fail", "rules": [{"on": "transfer", "effect": FAIL_91}]}
    bank.set_scenario(mine)
    assert bank.scenario()["name"] == "mine"
    bank.add_rules([{"on": "transfer", "match": {"accountNumber": "0123456789"}, "effect": FAIL_91}])
    bank.clear_scenario()
    assert bank.scenario()["name"] != "mine"
    bank.set_scenario("flaky-bank")
    bank.set_scenario(None)
    assert bank.scenario()["name"] != "flaky-bank"


def test_reset_brings_back_the_fixtures(bank):
    made = bank.new_client()
    bank.reset(keep_requests=True)
    assert made["clientId"] not in [c["clientId"] for c in bank.credentials(limit=100)["clients"]]
    assert bank.verify(method="POST", path="/clients", at_least=1)["count"] >= 1
    bank.reset()
    assert bank.verify(path="/clients", exactly=0)["count"] == 0
