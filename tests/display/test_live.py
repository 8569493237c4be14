"""CallProgress: throttling, thread safety and finishing, with a fake display handle.

A real kernel test (display handles updated from the bridge thread) lives with the kernel
tests; here the handle is a recorder, so these run in milliseconds.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import pytest

from tests.processes import run_python
from workbench.display import CallProgress, ProgressView, live


class FakeHandle:
    """Records updates and fails if two of them ever overlap."""

    def __init__(self) -> None:
        self.updates: list[Any] = []
        self._busy = threading.Lock()

    def update(self, obj: Any, **kwargs: Any) -> None:
        assert self._busy.acquire(blocking=False), "two updates at once"
        try:
            self.updates.append(obj)
        finally:
            self._busy.release()


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@dataclass(frozen=True)
class Record:
    level: str
    message: str
    server: str


def make(**options: Any) -> tuple[CallProgress, FakeHandle, FakeClock]:
    handle, clock = FakeHandle(), FakeClock()
    options.setdefault("interval", 0.1)
    progress = CallProgress("demo.slow", handle=handle, clock=clock, **options)
    return progress, handle, clock


def test_first_event_shows_at_once_and_bursts_are_throttled() -> None:
    progress, handle, _ = make(interval=60)  # the trailing timer never fires in the test
    progress.on_progress(1, 10, "one")
    assert len(handle.updates) == 1 and handle.updates[0].done == 1
    for step in range(2, 10):
        progress.on_progress(step, 10, f"step {step}")
    assert len(handle.updates) == 1
    progress.flush()  # the trailing edge, forced (the timer would do it after 60 s)
    assert len(handle.updates) == 2 and handle.updates[-1].done == 9
    progress.flush()  # nothing new: nothing sent
    assert len(handle.updates) == 2
    progress.finish()


def test_updates_resume_once_the_interval_has_passed() -> None:
    progress, handle, clock = make(interval=60)
    progress.on_progress(1, 3)
    clock.now += 61
    progress.on_progress(2, 3)
    assert [view.done for view in handle.updates] == [1, 2]
    progress.finish()


def test_trailing_update_arrives_without_further_events() -> None:
    progress, handle, clock = make(interval=0.05)
    progress.on_progress(1, 2)
    progress.on_progress(2, 2, "last")
    assert len(handle.updates) == 1
    clock.now += 1
    for _ in range(200):  # the timer thread flushes within ~0.05 s
        if len(handle.updates) == 2:
            break
        threading.Event().wait(0.01)
    assert handle.updates[-1].done == 2 and handle.updates[-1].message == "last"
    progress.finish()


def test_logs_keep_the_last_lines_first_line_only() -> None:
    progress, handle, _ = make(interval=0, max_logs=5)
    for number in range(8):
        progress.on_log(Record("info", f"line {number}\nsecond line", "demo"))
    last = handle.updates[-1]
    assert [message for _, _, message in last.logs] == [f"line {n}" for n in range(3, 8)]
    plain = last.to_plain()
    assert "[info] demo: line 7" in plain and "second line" not in plain
    progress.finish()


def test_view_renders_bar_counts_and_escaped_logs() -> None:
    view = ProgressView("demo.slow", 3, 4, "counting", (("warning", "demo", "<b>hot</b>"),), None)
    plain = view.to_plain()
    assert plain.splitlines()[0].startswith("demo.slow ██████████████████████░░░░░░░░ 3/4")
    assert "counting" in plain and "[warning] demo: <b>hot</b>" in plain
    html = view.to_html()
    assert html.startswith('<div class="wb-progress"') and "width:75.0%" in html
    assert "&lt;b&gt;hot&lt;/b&gt;" in html and "<b>" not in html
    assert set(view._repr_mimebundle_()) == {"text/plain", "text/html", live.PROGRESS_MIME}


def test_the_json_document_holds_what_the_line_shows() -> None:
    view = ProgressView("demo.slow", 3, 4, "counting", (("warning", "demo", "<b>hot</b>"),), None)
    assert view.to_json() == {
        "kind": "progress",
        "version": 1,
        "toolId": "demo.slow",
        "fraction": 0.75,
        "counts": "3/4",
        "status": "counting",
        "finished": False,
        "cancelled": False,
        "logs": [{"level": "warning", "server": "demo", "message": "<b>hot</b>"}],
    }
    ended = ProgressView("demo.slow", 4, 4, None, (), 2.0, cancelled=True).to_json()
    assert ended is not None
    assert ended["finished"] and ended["cancelled"] and ended["status"] == "cancelled after 2.00 s"
    assert ProgressView().to_json() is None
    assert live.PROGRESS_MIME not in ProgressView()._repr_mimebundle_()


def test_progress_without_total_shows_only_the_count() -> None:
    plain = ProgressView("t.x", 7, None, None).to_plain()
    assert plain == "t.x 7" and "█" not in plain


def test_an_empty_view_renders_nothing() -> None:
    assert ProgressView().to_plain() == "" and ProgressView().to_html() == ""


def test_finish_leaves_the_final_state_with_the_elapsed_time() -> None:
    progress, handle, clock = make()
    progress.on_progress(5, 5)
    clock.now += 2.5
    progress.finish()
    final = handle.updates[-1]
    assert final.elapsed == 2.5 and "finished in 2.50 s" in final.to_plain()
    progress.on_progress(6, 5)
    progress.finish()
    assert handle.updates[-1] is final  # finished: later events and finishes change nothing


def test_finish_clears_when_asked_or_when_nothing_came() -> None:
    progress, handle, _ = make()
    progress.on_progress(1, 2)
    progress.finish(clear=True)
    assert handle.updates[-1].empty
    quiet, quiet_handle, _ = make()
    with quiet:
        pass
    assert len(quiet_handle.updates) == 1 and quiet_handle.updates[0].to_plain() == ""


def test_callbacks_from_many_threads_never_overlap_and_end_consistent() -> None:
    handle = FakeHandle()
    progress = CallProgress("demo.many", handle=handle, interval=0.001)
    start = threading.Barrier(8)

    def work(worker: int) -> None:
        start.wait()
        for step in range(300):
            if step % 3:
                progress.on_progress(step, 300, f"worker {worker}")
            else:
                progress.on_log(Record("info", f"w{worker} s{step}", "demo"))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    progress.finish()
    assert len(handle.updates) >= 2
    final = handle.updates[-1]
    assert final.elapsed is not None and len(final.logs) == 5
    assert final.done == 299 and final.total == 300


def test_throttle_bounds_updates_in_real_time() -> None:
    handle = FakeHandle()
    progress = CallProgress("demo.fast", handle=handle, interval=0.05)
    began = time.monotonic()
    events = 0
    while time.monotonic() - began < 0.3:
        progress.on_progress(events, None)
        events += 1
    progress.flush()
    elapsed = time.monotonic() - began
    progress.finish()
    assert events > 100
    assert len(handle.updates) <= elapsed / 0.05 + 3  # + the first, the flush and the finish


@pytest.mark.integration
def test_without_a_kernel_it_does_nothing() -> None:
    script = (
        "from workbench.display import CallProgress\n"
        "p = CallProgress('t.x')\n"
        "p.on_progress(1, 2, 'half')\n"
        "p.finish()\n"
        "print('live' if p.live else 'quiet')\n"
    )
    result = run_python(script)
    assert result.stdout == "quiet\n" and result.stderr == ""


@pytest.mark.integration
def test_without_ipython_it_does_nothing() -> None:
    script = (
        "import sys\n"
        "sys.modules['IPython'] = None\n"
        "from workbench.display import CallProgress\n"
        "p = CallProgress('t.x')\n"
        "p.on_progress(1, 2)\n"
        "p.finish()\n"
        "print(p.live)\n"
    )
    assert run_python(script).stdout == "False\n"


def test_a_failing_display_goes_quiet_instead_of_breaking_the_call() -> None:
    class Broken:
        calls = 0

        def update(self, obj: Any, **kwargs: Any) -> None:
            Broken.calls += 1
            raise RuntimeError("kernel is gone")

    progress = CallProgress("t.x", handle=Broken(), interval=0)
    progress.on_progress(1, 2)
    progress.on_progress(2, 2)
    progress.finish()
    assert Broken.calls == 1 and not progress.live


def test_an_interrupted_call_says_cancelled_not_finished() -> None:
    progress, handle, clock = make(interval=0)
    progress.on_progress(3, 10, "Counted 3 of 10")
    clock.now += 3.71
    progress.finish(cancelled=True)
    final = handle.updates[-1].to_plain()
    assert "cancelled after 3.71 s" in final and "finished" not in final
    done, done_handle, _ = make(interval=0)
    done.on_progress(1, 1)
    done.finish()
    assert "finished in" in done_handle.updates[-1].to_plain()


class Opened:
    """Stands in for IPython's display: counts the displays a cell gets."""

    def __init__(self) -> None:
        self.shown: list[ProgressView] = []
        self.handle = FakeHandle()

    def __call__(self, view: ProgressView) -> FakeHandle:
        self.shown.append(view)
        return self.handle


def test_a_call_without_progress_leaves_no_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """The placeholder display was saved in every notebook as an empty output."""
    opened = Opened()
    monkeypatch.setattr(live, "_in_a_kernel", lambda: True)
    monkeypatch.setattr(live, "_open_display", opened)
    quiet = CallProgress("demo.add", interval=0)
    assert quiet.live
    quiet.finish()
    assert opened.shown == [] and opened.handle.updates == []
    loud = CallProgress("demo.slow", interval=0)
    loud.on_progress(1, 2)
    loud.on_progress(2, 2)
    loud.finish()
    assert [view.done for view in opened.shown] == [1]
    assert [view.done for view in opened.handle.updates] == [2, 2]
