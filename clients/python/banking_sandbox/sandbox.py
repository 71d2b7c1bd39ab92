"""The handle: every call of the sandbox's control API, over the standard library's urllib."""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, List, Mapping, Optional, Union

from .errors import SandboxError, SandboxUnreachable, VerificationError

DEFAULT_URL = "http://127.0.0.1:4010"
API_PREFIX = "/api/v1"
CONTROL_PREFIX = "/__sandbox"
# Longer than the longest drain a test asks for (the sandbox stops a drain at 600 s).
TIMEOUT_S = 660.0


def camel(name: str) -> str:
    """`payer_account_number` as the wire spells it: `payerAccountNumber`."""
    head, *rest = name.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


def camel_keys(fields: Mapping[str, Any]) -> Dict[str, Any]:
    """The keyword arguments of a call, named as the wire names them; a value left as None is not sent."""
    return {camel(k): v for k, v in fields.items() if v is not None}


def _segment(value: str) -> str:
    return urllib.parse.quote(str(value), safe="")


class Sandbox:
    """A sandbox: the root of a process (`id` None) or an isolated one inside it.

    `api_url` is the bank's API your app calls (`…/api/v1`), `control_url` the control API (`…/__sandbox`).
    Every method answers the envelope's `data` as it is, as plain dicts and lists, and raises `SandboxError`
    when the sandbox refuses.
    """

    def __init__(self, url: str, token: Optional[str] = None, id: Optional[str] = None) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.id = id
        base = self.url if id is None else f"{self.url}/sandboxes/{_segment(id)}"
        self.base_url = base
        self.api_url = base + API_PREFIX
        self.control_url = base + CONTROL_PREFIX

    def __repr__(self) -> str:
        return f"Sandbox({self.base_url!r})"

    # --- the wire ---------------------------------------------------------------------------------------------

    def _call(
        self,
        method: str,
        path: str,
        body: Any = None,
        query: Optional[Mapping[str, Any]] = None,
        root: bool = False,
        envelope: bool = True,
    ) -> Any:
        """Calls the control API (the root's when `root`) and answers the envelope's `data`."""
        url = (self.url + CONTROL_PREFIX if root else self.control_url) + path
        q = {k: _query_value(v) for k, v in (query or {}).items() if v is not None}
        if q:
            url += "?" + urllib.parse.urlencode(q)
        headers = {"accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["content-type"] = "application/json"
        if self.token:
            headers["x-sandbox-token"] = self.token
        req = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=TIMEOUT_S) as res:
                status, text = res.status, res.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read().decode("utf-8", "replace")
        except (urllib.error.URLError, ConnectionError) as error:
            raise SandboxUnreachable(self.url, getattr(error, "reason", error)) from error
        answer = _json(text)
        if status >= 400:
            raise _refusal(status, answer, text, method, url)
        if not envelope:
            return answer
        return answer.get("data") if isinstance(answer, dict) else answer

    # --- the sandbox itself -----------------------------------------------------------------------------------

    def health(self) -> Dict[str, Any]:
        """The process's health (`GET /__sandbox/health`): `status`, `version`, `uptimeSeconds`."""
        return self._call("GET", "/health", root=True, envelope=False)

    def metrics(self, gc: Optional[bool] = None) -> Any:
        """The process's memory, queues and sizes (`GET /__sandbox/metrics`); `gc=True` collects first."""
        return self._call("GET", "/metrics", query={"gc": gc}, root=True)

    def reset(self, keep_requests: bool = False) -> None:
        """Back to the fixtures: state, scenario, clock and (unless `keep_requests`) the request journal."""
        self._call("POST", "/reset", query={"keep": "requests"} if keep_requests else None)

    def drain(self, timeout_ms: Optional[int] = None) -> None:
        """Waits until batches are settled and webhooks delivered; a `SandboxError` 408 says what still waits."""
        self._call("POST", "/drain", query={"timeoutMs": timeout_ms})

    def credentials(self, **query: Any) -> Any:
        """The clients' logins, keys, businesses and members: `clients`, 100 a page (`page`, `limit` up to 1000)."""
        return self._call("GET", "/credentials", query=camel_keys(query))

    def new_client(
        self,
        name: Optional[str] = None,
        balance: Optional[int] = None,
        webhook_url: Optional[str] = None,
        members: Optional[List[str]] = None,
    ) -> Dict[str, Any]:
        """A fresh client: keys, an owner, an approved funded business, members and a virtual account."""
        body = camel_keys({"name": name, "balance": balance, "webhook_url": webhook_url, "members": members})
        return self._call("POST", "/clients", body)

    def rotate_secret(self, client_id: str) -> Any:
        """A new secret key for the client; the old one stops working."""
        return self._call("POST", f"/clients/{_segment(client_id)}/rotate-secret")

    def export_state(self) -> Any:
        """The whole state, to import later (`GET /__sandbox/state`)."""
        return self._call("GET", "/state", envelope=False)

    def import_state(self, state: Any) -> Any:
        """Replaces the state with one `export_state()` answered (`PUT /__sandbox/state`)."""
        return self._call("PUT", "/state", state)

    # --- isolated sandboxes -----------------------------------------------------------------------------------

    def isolate(
        self,
        id: Optional[str] = None,
        seed: Optional[int] = None,
        scenario: Union[str, Mapping[str, Any], None] = None,
        clock: Optional[str] = None,
        replace: bool = False,
    ) -> "Sandbox":
        """A new isolated sandbox of the same process, a world of its own; `dispose()` (or `with`) deletes it.

        `replace=True` deletes a sandbox of that id first, if there is one.
        """
        body = camel_keys({"id": id, "seed": seed, "scenario": scenario, "clock": clock})
        # Sent only when asked: a sandbox that predates the field refuses any unknown one.
        if replace:
            body["replace"] = True
        made = self._call("POST", "/sandboxes", body, root=True)
        return Sandbox(self.url, self.token, made["id"])

    def sandboxes(self) -> List[Dict[str, Any]]:
        """The isolated sandboxes of the process (`GET /__sandbox/sandboxes`)."""
        return self._call("GET", "/sandboxes", root=True)

    def delete_sandbox(self, id: str) -> None:
        """Deletes an isolated sandbox by id (`DELETE /__sandbox/sandboxes/{id}`)."""
        self._call("DELETE", f"/sandboxes/{_segment(id)}", root=True)

    def dispose(self) -> None:
        """Deletes this isolated sandbox; twice, or once it is gone by other means, is done all the same.

        The root is the process's own and stays.
        """
        if self.id is None:
            return
        try:
            self.delete_sandbox(self.id)
        except SandboxError as error:
            if error.status != 404:
                raise

    def __enter__(self) -> "Sandbox":
        return self

    def __exit__(self, *exc: object) -> None:
        self.dispose()

    # --- scenarios and the clock ------------------------------------------------------------------------------

    def scenario(self) -> Any:
        """The scenario in force and its rules (`GET /__sandbox/scenario`)."""
        return self._call("GET", "/scenario")

    def scenarios(self) -> Any:
        """The ready scenarios, by name (`GET /__sandbox/scenarios`)."""
        return self._call("GET", "/scenarios")

    def set_scenario(self, name_or_scenario: Union[str, Mapping[str, Any], None]) -> Any:
        """A ready scenario by name, a scenario dict, or None for the start-up one."""
        if name_or_scenario is None:
            return self.clear_scenario()
        if isinstance(name_or_scenario, str):
            return self._call("PUT", "/scenario", {"name": name_or_scenario})
        return self._call("PUT", "/scenario", dict(name_or_scenario))

    def add_rules(self, rules: List[Mapping[str, Any]]) -> Any:
        """Puts failure rules in front of the scenario (`POST /__sandbox/scenario/rules`)."""
        return self._call("POST", "/scenario/rules", {"rules": list(rules)})

    def clear_scenario(self) -> Any:
        """Back to the start-up scenario (`DELETE /__sandbox/scenario`)."""
        return self._call("DELETE", "/scenario")

    def clock(self) -> Dict[str, Any]:
        """The virtual clock: `now`, `frozen`, `offsetMs`."""
        return self._call("GET", "/clock")

    def freeze_clock(self, frozen: bool = True) -> Any:
        """Stops the clock (or, with `frozen=False`, lets it run again)."""
        return self._call("POST", "/clock/freeze", {"frozen": frozen})

    def advance_clock(self, ms: int) -> Any:
        """Moves the clock on; what comes due in that time runs."""
        return self._call("POST", "/clock/advance", {"ms": ms})

    # --- money ------------------------------------------------------------------------------------------------

    def incoming_payment(self, account_number: str, amount: Union[int, str], **fields: Any) -> Dict[str, Any]:
        """Money arrives on a virtual account (`account_name`, `narration`, `payer_account_number`, …)."""
        body = {"accountNumber": account_number, "amount": amount, **camel_keys(fields)}
        return self._call("POST", "/incoming-payments", body)

    def refund_payment(self, transaction_reference: str, reason: Optional[str] = None) -> Any:
        """Sends an incoming payment back to its payer."""
        body = camel_keys({"reason": reason})
        return self._call("POST", f"/incoming-payments/{_segment(transaction_reference)}/refund", body)

    def reverse_transfer(self, business_id: str, retrieval_reference: str, reason: Optional[str] = None) -> Any:
        """The receiving bank sends a successful transfer back: the business is credited again."""
        path = f"/businesses/{_segment(business_id)}/transfers/{_segment(retrieval_reference)}/reverse"
        return self._call("POST", path, camel_keys({"reason": reason}))

    def ledger(self, business_id: str, **query: Any) -> Any:
        """The business's ledger, newest first (`retrieval_reference`, `page`, `limit`)."""
        return self._call("GET", f"/businesses/{_segment(business_id)}/ledger", query=camel_keys(query))

    def set_balance(self, business_id: str, kobo: int) -> Any:
        """Sets the business's balance, in kobo."""
        return self._call("PUT", f"/businesses/{_segment(business_id)}/balance", {"balance": kobo})

    def approve(self, business_id: str) -> Any:
        """Approves a business that registration left pending."""
        return self._call("POST", f"/businesses/{_segment(business_id)}/approve")

    def add_subscription(self, business_id: str, package_name: str, amount: Union[int, str], interval: str) -> Any:
        """A subscription plan of the business, as the bank's API lists it."""
        body = {"packageName": package_name, "amount": amount, "interval": interval}
        return self._call("POST", f"/businesses/{_segment(business_id)}/subscriptions", body)

    def account_numbers(self, bank_code: str, count: int = 1) -> Any:
        """`count` receiver account numbers whose NUBAN check digit is right for the bank, the same every run."""
        return self._call("GET", "/account-numbers", query={"bankCode": bank_code, "count": count})

    def virtual_accounts(self, **query: Any) -> Any:
        """Every virtual account (`page`, `limit`)."""
        return self._call("GET", "/virtual-accounts", query=camel_keys(query))

    def resolve_dispute(self, dispute_id: str) -> Any:
        """Decides a dispute for the business: the amount is credited back."""
        return self._call("POST", f"/disputes/{_segment(dispute_id)}/resolve")

    def reject_dispute(self, dispute_id: str) -> Any:
        """Decides a dispute against the business."""
        return self._call("POST", f"/disputes/{_segment(dispute_id)}/reject")

    def batches(self, **filters: Any) -> Any:
        """The bulk transfer batches (`status`, `client_id`, `page`, `limit`)."""
        return self._call("GET", "/bulk-transfers", query=camel_keys(filters))

    def batch(self, batch_id: str) -> Any:
        """One batch with its items."""
        return self._call("GET", f"/bulk-transfers/{_segment(batch_id)}")

    def reprocess_batch(self, batch_id: str, item_id: Optional[str] = None) -> Any:
        """Runs a batch's failed items again (one, with `item_id`)."""
        return self._call("POST", f"/bulk-transfers/{_segment(batch_id)}/reprocess", camel_keys({"item_id": item_id}))

    # --- what the sandbox sent and received -------------------------------------------------------------------

    def deliveries(self, **filters: Any) -> Any:
        """The webhook deliveries and their attempts (`status`, `client_id`, `page`, `limit`)."""
        return self._call("GET", "/webhooks/deliveries", query=camel_keys(filters))

    def delivery(self, delivery_id: str) -> Any:
        """One delivery with every attempt."""
        return self._call("GET", f"/webhooks/deliveries/{_segment(delivery_id)}")

    def redeliver(self, delivery_id: str) -> Any:
        """Sends a delivery again."""
        return self._call("POST", f"/webhooks/deliveries/{_segment(delivery_id)}/redeliver")

    def outbox(self, **filters: Any) -> Any:
        """The emails and texts the bank would have sent (`to`, `type`, `page`, `limit`)."""
        return self._call("GET", "/outbox", query=camel_keys(filters))

    def requests(self, **filters: Any) -> Any:
        """The request journal's entries that match, newest first.

        `method`, `path` (a part), `status` (`400` or `"4xx"`), `client_id`, `business_id`, `request_id`, `body` (a
        dict, a subset of the JSON body), `page`, `limit`.
        """
        return self._call("POST", "/requests/search", _filters(filters))

    def list_requests(self, **filters: Any) -> Any:
        """The journal through its query string (`GET /__sandbox/requests`): as `requests()`, without `body`."""
        return self._call("GET", "/requests", query=_filters(filters))

    def requests_har(self, **filters: Any) -> Dict[str, Any]:
        """The journal as a HAR document, for a browser's network panel or a replay tool."""
        return self._call("GET", "/requests.har", query=_filters(filters), envelope=False)

    def request(self, entry_id: str) -> Any:
        """One journal entry, whole."""
        return self._call("GET", f"/requests/{_segment(entry_id)}")

    def clear_requests(self) -> Any:
        """Empties the request journal."""
        return self._call("DELETE", "/requests")

    def verify(self, **criteria: Any) -> Any:
        """Asserts how many requests match: the `requests()` filters and `exactly`, `at_least` or `at_most`.

        Raises `VerificationError` (an AssertionError) whose message lists the near misses and what each misses.
        """
        try:
            return self._call("POST", "/requests/verify", _filters(criteria))
        except SandboxError as error:
            data = error.data
            if error.status == 409 and isinstance(data, dict):
                raise VerificationError(
                    error.message, data.get("count", 0), data.get("expected"), data.get("nearest", [])
                ) from None
            raise

    def drift(self) -> Any:
        """With `--upstream`: where the real bank answered otherwise than the sandbox would."""
        return self._call("GET", "/drift")

    def clear_drift(self) -> Any:
        """Empties the drift report."""
        return self._call("DELETE", "/drift")


def _filters(filters: Mapping[str, Any]) -> Dict[str, Any]:
    # `body` is a subset of the request's own JSON, compared as the app sent it: its keys stay as given.
    return camel_keys(filters)


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _json(text: str) -> Any:
    try:
        return json.loads(text) if text else None
    except ValueError:
        return None


def _refusal(status: int, answer: Any, text: str, method: str, url: str) -> SandboxError:
    if isinstance(answer, dict):
        message = answer.get("message") or answer.get("error") or text[:200]
        return SandboxError(status, str(message), answer.get("errors"), answer.get("data"), method, url)
    return SandboxError(status, text[:200] or "no body", None, None, method, url)


_URL = re.compile(r"^https?://", re.IGNORECASE)


def connect(url: Optional[str] = None, token: Optional[str] = None) -> Sandbox:
    """The root sandbox at `url` (default `$BANKING_SANDBOX_URL`, then http://127.0.0.1:4010).

    `token` (default `$BANKING_SANDBOX_TOKEN`) is the control token, sent as `x-sandbox-token`. Asks the health
    route at once: nothing listening raises `SandboxUnreachable`, naming the URL and how to start a sandbox.
    """
    given = url or os.environ.get("BANKING_SANDBOX_URL") or DEFAULT_URL
    if not _URL.match(given):
        given = "http://" + given
    # The base URL, whichever of its doors was named.
    base = re.sub(r"/(api/v1|__sandbox)/?$", "", given.rstrip("/"))
    sandbox = Sandbox(base, token if token is not None else os.environ.get("BANKING_SANDBOX_TOKEN") or None)
    try:
        sandbox.health()
    except SandboxError as error:
        # A server answers, but not a sandbox's health route: no sandbox there either.
        if error.status != 404:
            raise
        raise SandboxUnreachable(base, f"{error.status} {error.message}") from error
    return sandbox
