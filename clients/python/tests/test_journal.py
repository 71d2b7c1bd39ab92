import pytest

from banking_sandbox import VerificationError


def test_requests_filters_in_camel_case_and_verify_counts(bank):
    bank.clear_requests()
    me = bank.new_client()
    entries = bank.requests(method="POST", path="/__sandbox/clients")
    assert len(entries) == 1 and entries[0]["path"].endswith("/__sandbox/clients")
    assert bank.verify(method="POST", path="/clients", exactly=1)["count"] == 1
    assert bank.list_requests(method="POST", path="/clients")[0]["id"] == entries[0]["id"]
    assert bank.request(entries[0]["id"])["response"]["status"] == 201
    har = bank.requests_har(limit=5)
    assert har["log"]["entries"]
    assert me["clientId"]


def test_verify_raises_an_assertion_error_listing_the_near_misses(bank):
    bank.clock()
    with pytest.raises(VerificationError) as caught:
        bank.verify(method="POST", path="/__sandbox/clock", at_least=1)
    error = caught.value
    assert isinstance(error, AssertionError)
    assert error.count == 0
    assert error.expected == {"atLeast": 1}
    assert error.nearest
    assert "method: wanted POST, was GET" in str(error)


def test_clear_requests_empties_the_journal(bank):
    bank.clock()
    bank.clear_requests()
    assert bank.verify(path="/__sandbox/clock", exactly=0)["count"] == 0
