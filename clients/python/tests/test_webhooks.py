import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest


@pytest.fixture
def receiver():
    received = []

    class Hook(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["content-length"]))
            received.append({"auth": self.headers["AUTH-KEY"], "body": json.loads(body)})
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Hook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    server.received = received
    yield server
    server.shutdown()
    server.server_close()


def test_a_payment_is_delivered_to_a_receiver_in_the_test_process(bank, receiver):
    me = bank.new_client(webhook_url=f"http://127.0.0.1:{receiver.server_port}/hooks")
    paid = bank.incoming_payment(me["virtualAccount"]["accountNumber"], 500_000, account_name="Ada Obi")
    bank.drain(timeout_ms=10_000)
    [hook] = receiver.received
    assert hook["auth"] == me["webhookAuthKey"]
    assert hook["body"]["transactionReference"] == paid["transactionReference"]
    [delivery] = bank.deliveries(client_id=me["clientId"])
    assert delivery["status"] == "delivered"
    assert bank.delivery(delivery["id"])["id"] == delivery["id"]
    bank.redeliver(delivery["id"])
    bank.drain(timeout_ms=10_000)
    assert len(receiver.received) == 2


def test_the_outbox_and_the_drift_report_answer_lists(bank):
    assert isinstance(bank.outbox(limit=5), list)
    assert bank.drift() is not None
    bank.clear_drift()
