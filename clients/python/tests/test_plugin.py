# The plugin as a user's suite meets it: an inner pytest session (pytester) with the package's entry point loaded.
import ast
import os
import socket

TWO_TESTS = """
SEEN = []

def test_one(bank):
    SEEN.append(bank.id)

def test_two(bank):
    SEEN.append(bank.id)
    print("IDS", SEEN)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ids_printed(result):
    [line] = [line for line in result.outlines if "IDS " in line]
    return ast.literal_eval(line.split("IDS ", 1)[1])


def test_bank_is_one_sandbox_per_module_by_default(pytester):
    pytester.makepyfile(test_default=TWO_TESTS)
    result = pytester.runpytest_subprocess("-s", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    first, second = ids_printed(result)
    assert first == second
    assert "test-default" in first


def test_the_ini_option_gives_one_per_test(pytester):
    pytester.makeini("[pytest]\nbanking_sandbox_scope = function\n")
    pytester.makepyfile(test_each=TWO_TESTS)
    result = pytester.runpytest_subprocess("-s", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    first, second = ids_printed(result)
    assert first != second


def test_an_unknown_scope_is_refused_by_name(pytester):
    pytester.makeini("[pytest]\nbanking_sandbox_scope = class\n")
    pytester.makepyfile(test_x="def test_x(bank):\n    pass\n")
    result = pytester.runpytest_subprocess()
    result.stderr.fnmatch_lines(["*banking_sandbox_scope = class: must be one of function, module, session*"])


def test_the_option_wins_over_the_environment_and_nothing_there_fails_naming_the_url(pytester, monkeypatch):
    good = os.environ["BANKING_SANDBOX_URL"]
    url = f"http://127.0.0.1:{free_port()}"
    pytester.makepyfile(test_x="def test_x(bank):\n    pass\n")
    result = pytester.runpytest_subprocess(f"--banking-sandbox-url={url}")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([f"*no banking sandbox answers at {url}*npx banking-sandbox*"])
    monkeypatch.setenv("BANKING_SANDBOX_URL", url)
    result = pytester.runpytest_subprocess(f"--banking-sandbox-url={good}")
    result.assert_outcomes(passed=1)


def test_a_new_run_has_a_new_run_id_whatever_the_environment_holds(pytester, monkeypatch):
    monkeypatch.setenv("BANKING_SANDBOX_RUN_ID", "stale")
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    pytester.makepyfile(test_default=TWO_TESTS)
    result = pytester.runpytest_subprocess("-s", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    assert "-stale-" not in ids_printed(result)[0]
