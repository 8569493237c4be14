"""Workshop checks in a real IPython shell: a failed assert shows its hint in a box and one
line instead of a traceback, and still fails the cell; a passing check says so in one line."""

from __future__ import annotations

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from workbench.workshop import CheckFailed, Verdict, check

FAILING = """\
from workbench.workshop import check
with check(3) as this:
    got = 1
    assert got == 2, f"got should be 2, got {got!r}: <b>add one</b>."
    this.done("never shown")
"""


def test_a_failed_assert_shows_its_hint_and_one_line_not_the_checks_code(
    ip: InteractiveShell,
) -> None:
    with capture_output() as captured:
        result = ip.run_cell(FAILING)
    assert isinstance(result.error_in_exec, CheckFailed)  # the cell fails: Run All stops
    assert str(result.error_in_exec) == "got should be 2, got 1: <b>add one</b>."
    [bundle] = [output.data for output in captured.outputs]
    assert bundle["text/plain"] == "Check 3: not yet: got should be 2, got 1: <b>add one</b>."
    assert "&lt;b&gt;add one&lt;/b&gt;" in bundle["text/html"]  # a hint is text, never HTML
    assert "<b>" not in bundle["text/html"] and "wb-check" in bundle["text/html"]
    shown = captured.stdout + captured.stderr
    assert "Check 3 is not passed yet, so Run All stops here." in shown
    for code in ("assert", "Traceback", "got == 2", "never shown"):
        assert code not in shown, (code, shown)


def test_a_passing_check_says_the_exercise_is_done(ip: InteractiveShell) -> None:
    with capture_output() as captured:
        result = ip.run_cell(
            "from workbench.workshop import check\n"
            "with check(2) as this:\n    assert 1 + 1 == 2, 'no'\n    this.done('two is two')\n"
        )
    assert result.success
    [bundle] = [output.data for output in captured.outputs]
    assert bundle["text/plain"] == "Exercise 2 done: two is two"
    assert "✓ Exercise 2 done" in bundle["text/html"]


def test_a_name_the_check_reads_before_the_answer_ran_is_a_hint(ip: InteractiveShell) -> None:
    with capture_output() as captured:
        result = ip.run_cell(
            "from workbench.workshop import check\n"
            "with check(3) as this:\n    assert never_defined_answer == 1, 'no'\n"
        )
    assert isinstance(result.error_in_exec, CheckFailed)
    [bundle] = [output.data for output in captured.outputs]
    assert bundle["text/plain"] == (
        "Check 3: not yet: never_defined_answer is not defined yet: run your answer cell above "
        "first."
    )
    assert "Traceback" not in captured.stdout + captured.stderr


def test_other_exceptions_keep_their_traceback() -> None:
    """The participant's own code raising: its traceback points at their cell."""

    def participants_tool() -> None:
        return undefined_inside_their_function  # type: ignore[name-defined]  # noqa: F821

    for mistake, kind in ((lambda: int("seven"), ValueError), (participants_tool, NameError)):
        with pytest.raises(kind) as raised, check(1):
            mistake()
        assert not hasattr(raised.value, "_render_traceback_")


def test_outside_ipython_the_verdict_reads_as_text() -> None:
    assert repr(Verdict(1, False, "a\x1b[2J b")) == "Check 1: not yet: a␛[2J b"
    assert repr(Verdict(4, True, "")) == "Exercise 4 done"
    assert CheckFailed(5, "hint")._render_traceback_() == [
        "Check 5 is not passed yet, so Run All stops here."
    ]
