import json
import urllib.request

from banking_sandbox import OPERATIONS, Sandbox

# The dashboard's pages and the documents themselves are for browsers.
NOT_CALLS = ("/ui", "/openapi.json", "/docs")


def test_every_operation_of_the_control_document_has_a_method(banking_sandbox):
    with urllib.request.urlopen(banking_sandbox.control_url + "/openapi.json") as res:
        document = json.load(res)
    ids = {
        op["operationId"]
        for path, item in document["paths"].items()
        if not path.startswith(NOT_CALLS)
        for op in item.values()
        if isinstance(op, dict) and "operationId" in op
    }
    assert set(OPERATIONS) == ids
    for name in OPERATIONS.values():
        assert callable(getattr(Sandbox, name, None)), name
