# The package promises Python 3.9: its source must parse as 3.9 parses, whatever Python runs these tests.
import ast
from pathlib import Path

import banking_sandbox


def test_every_module_parses_as_python_3_9():
    for path in Path(banking_sandbox.__file__).parent.glob("*.py"):
        ast.parse(path.read_text(encoding="utf-8"), filename=str(path), feature_version=(3, 9))


def test_the_package_needs_nothing_beyond_the_standard_library():
    import importlib.metadata as metadata

    assert metadata.requires("banking-sandbox") in (None, [])
