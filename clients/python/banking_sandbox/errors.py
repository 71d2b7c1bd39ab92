"""What a call to the sandbox raises."""

from __future__ import annotations

from typing import Any, List, Optional

# Where a reader who has no sandboxes running finds one, said in every "nothing answers" message.
HOW_TO_START = (
    "start one with `npx banking-sandbox --in-memory` (in a checkout: `npm start`), "
    "or `docker run --rm -p 127.0.0.1:4010:4010 -e SANDBOX_IN_MEMORY=1 banking-sandbox` "
    "(the image is built from the repository's Dockerfile), "
    "or point $BANKING_SANDBOX_URL at one"
)


class SandboxUnreachable(ConnectionError):
    """Nothing answers at the sandbox's URL; `url` is the one tried."""

    def __init__(self, url: str, reason: object = None) -> None:
        self.url = url
        why = f" ({reason})" if reason else ""
        super().__init__(f"no banking sandbox answers at {url}{why}: {HOW_TO_START}")


class SandboxError(Exception):
    """The sandbox refused a call: its HTTP `status`, and the envelope's `message`, `errors` and `data`."""

    def __init__(
        self,
        status: int,
        message: str,
        errors: Optional[List[Any]] = None,
        data: Any = None,
        method: str = "",
        url: str = "",
    ) -> None:
        self.status = status
        self.message = message
        self.errors = errors or []
        self.data = data
        self.method = method
        self.url = url
        where = f" ({method} {url})" if method else ""
        super().__init__(f"{status} {message}{where}")


class VerificationError(AssertionError):
    """`verify()` counted otherwise: the message is the sandbox's, a line per near miss and what it misses."""

    def __init__(self, message: str, count: int, expected: Any, nearest: List[Any]) -> None:
        self.count = count
        self.expected = expected
        self.nearest = nearest
        super().__init__(message)
