"""Drive a local banking sandbox from Python tests.

    import banking_sandbox
    root = banking_sandbox.connect()          # $BANKING_SANDBOX_URL, else http://127.0.0.1:4010
    with root.isolate() as bank:              # a world of its own, deleted afterwards
        me = bank.new_client(balance=10_000_000)
"""

from .errors import SandboxError, SandboxUnreachable, VerificationError
from .operations import OPERATIONS
from .sandbox import DEFAULT_URL, Sandbox, connect

try:
    from importlib.metadata import version

    __version__ = version("banking-sandbox")
except Exception:  # run from the source tree, not installed
    __version__ = "0+source"

__all__ = [
    "DEFAULT_URL",
    "OPERATIONS",
    "Sandbox",
    "SandboxError",
    "SandboxUnreachable",
    "VerificationError",
    "connect",
]
