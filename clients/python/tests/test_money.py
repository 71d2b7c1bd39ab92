import pytest

from banking_sandbox import SandboxError


@pytest.fixture(scope="module")
def me(bank):
    return bank.new_client(name="Python Ventures", balance=10_000_000, members=["Viewer"])


def test_new_client_answers_keys_a_funded_business_and_a_virtual_account(me):
    assert me["name"] == "Python Ventures"
    assert me["secretKey"].startswith("sk_")
    assert len(me["virtualAccount"]["accountNumber"]) == 10
    assert [m["role"] for m in me["members"]] == ["Viewer"]


def test_incoming_payment_sends_snake_case_fields_in_camel_case(bank, me):
    paid = bank.incoming_payment(
        me["virtualAccount"]["accountNumber"], 500_000, payer_account_number="0123456789", narration="Invoice 7"
    )
    assert paid["transactionReference"].startswith("SBX")
    bank.verify(
        method="POST", path="/incoming-payments", body={"payerAccountNumber": "0123456789"}, at_least=1
    )
    business_id = me["businesses"][0]["id"]
    entries = bank.ledger(business_id)["transactions"]
    assert entries[0]["id"] == paid["transactionReference"]


def test_set_balance_and_ledger(bank, me):
    business_id = me["businesses"][0]["id"]
    bank.set_balance(business_id, 42_00)
    assert bank.ledger(business_id, limit=1)["transactions"] is not None
    with pytest.raises(SandboxError) as caught:
        bank.set_balance("no-such-business", 1)
    assert caught.value.status == 404


def test_approve_refuses_an_unknown_business(bank):
    with pytest.raises(SandboxError) as caught:
        bank.approve("no-such-business")
    assert caught.value.status == 404


def test_account_numbers_are_the_banks_first_with_a_right_check_digit(bank):
    answer = bank.account_numbers("058", count=3)
    assert len(answer["accountNumbers"]) == 3
    assert answer == bank.account_numbers("058", 3)


def test_add_subscription_virtual_accounts_credentials_and_rotate_secret(bank, me):
    business_id = me["businesses"][0]["id"]
    plan = bank.add_subscription(business_id, "Gold", 250_000, "monthly")
    assert plan["packageName"] == "Gold"
    assert any(a["accountNumber"] == me["virtualAccount"]["accountNumber"] for a in bank.virtual_accounts(limit=100))
    clients = bank.credentials(limit=100)["clients"]
    assert me["clientId"] in [c["clientId"] for c in clients]
    rotated = bank.rotate_secret(me["clientId"])
    assert rotated["secretKey"] != me["secretKey"]


def test_disputes_batches_reversals_and_refunds_name_what_they_act_on(bank):
    # Each refuses an id the sandbox does not hold with a 404 that says so.
    calls = [
        lambda: bank.resolve_dispute("no-such-dispute"),
        lambda: bank.reject_dispute("no-such-dispute"),
        lambda: bank.batch("no-such-batch"),
        lambda: bank.reprocess_batch("no-such-batch"),
        lambda: bank.reverse_transfer("no-such-business", "no-such-reference", reason="returned"),
        lambda: bank.refund_payment("no-such-reference"),
    ]
    for call in calls:
        with pytest.raises(SandboxError) as caught:
            call()
        assert caught.value.status == 404
    assert isinstance(bank.batches(limit=5), list)


def test_refund_payment_and_reverse_transfer(bank, me):
    business_id = me["businesses"][0]["id"]
    paid = bank.incoming_payment(me["virtualAccount"]["accountNumber"], 300_000)
    refunded = bank.refund_payment(paid["transactionReference"], reason="Wrong payer")
    assert refunded["refundStatus"] == "refunded"
    assert refunded["reason"] == "Wrong payer"
    with pytest.raises(SandboxError) as again:
        bank.refund_payment(paid["transactionReference"])
    assert again.value.status == 409
    assert again.value.message == "Payment already refunded"
    with pytest.raises(SandboxError) as unknown:
        bank.reverse_transfer(business_id, "never-sent")
    assert unknown.value.status == 404
    assert unknown.value.message == "Transfer not found"
