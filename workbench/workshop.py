"""Workshop checks that teach: a check that fails shows its hint in a short box, not a traceback.

A check cell of ``notebooks/workshop.ipynb`` is plain asserts whose messages name the likely
mistake, inside ``with check(N) as this:``. When one fails, the cell shows "Check N: not yet"
and the hint, and ends in a :class:`CheckFailed` that IPython shows as one line (its
``_render_traceback_``), never the folded check's code. The cell still ends in error, so
Run All stops at the first unfinished exercise. When every assert holds, one green line says
the exercise is done. A name the check reads but no cell has defined yet (the answer cell
not run) is the same kind of hint. Any other exception (the participant's tool raising, say)
keeps its traceback: that one points into the participant's own code.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import TracebackType
from typing import Literal

from workbench.display.markup import box, esc
from workbench.display.style import Tone
from workbench.display.visible import visible

__all__ = ["Check", "CheckFailed", "Verdict", "check"]


class CheckFailed(AssertionError):
    """A workshop check that has not passed yet; ``str()`` is its hint."""

    def __init__(self, number: int, hint: str) -> None:
        super().__init__(hint)
        self.number = number
        self.hint = hint

    def _render_traceback_(self) -> list[str]:
        """What IPython shows instead of a traceback: the hint is in the box above it."""
        return [f"Check {self.number} is not passed yet, so Run All stops here."]


@dataclass(frozen=True)
class Verdict:
    """One check's outcome as a small box: green when passed, amber with the hint when not."""

    number: int
    passed: bool
    text: str

    @property
    def title(self) -> str:
        return f"Exercise {self.number} done" if self.passed else f"Check {self.number}: not yet"

    def __repr__(self) -> str:
        return visible(f"{self.title}: {self.text}" if self.text else self.title)

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> dict[str, str]:
        tone: Tone = "ok" if self.passed else "warn"
        mark = "✓ " if self.passed else ""
        title = f'<span style="font-weight:600">{esc(mark + self.title)}</span>'
        if self.passed:
            inner = title + (f": {esc(self.text)}" if self.text else "")
        else:
            inner = title + f'<div style="white-space:pre-wrap;margin:3px 0">{esc(self.text)}</div>'
        return {"text/plain": repr(self), "text/html": box("check", inner, tone=tone)}


class Check:
    """``with check(N) as this:`` around a check's asserts; ``this.done(message)`` says what
    the green line adds when every assert held."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.message = ""

    def done(self, message: str) -> None:
        """The words after "Exercise N done" when the check passes."""
        self.message = message

    def __enter__(self) -> Check:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> Literal[False]:
        if error is None:
            show(Verdict(self.number, True, self.message))
            return False
        hint = None
        if isinstance(error, AssertionError) and not isinstance(error, CheckFailed):
            hint = str(error) or "an assert without a message failed."
        elif isinstance(error, NameError) and traceback is not None and traceback.tb_next is None:
            # Raised by the check's own lines, not inside the participant's code.
            hint = f"{error.name} is not defined yet: run your answer cell above first."
        if hint is None:
            return False
        show(Verdict(self.number, False, hint))
        raise CheckFailed(self.number, hint) from None


def check(number: int) -> Check:
    """The check of exercise ``number``: ``with check(1) as this: assert ..., "hint"``."""
    return Check(number)


def show(verdict: Verdict) -> None:
    """Display the verdict in the running cell (printed outside IPython)."""
    from IPython.display import display

    display(verdict)  # type: ignore[no-untyped-call]
