"""The page-error filter excuses jupyter_server's kernel-list race only with its evidence."""

from __future__ import annotations

from tests.browser.jupyter_browser import kernel_list_races

RACE = (
    "Failed to load resource: the server responded with a status of 500 (Internal Server Error)"
    " (http://127.0.0.1:41587/api/kernels?1795715178670)"
)
TRACE = "AttributeError: 'AsyncIOLoopKernelManager' object has no attribute 'last_activity'"


def test_a_kernel_list_500_is_excused_when_the_log_shows_the_race() -> None:
    assert kernel_list_races([RACE], f"[E] Uncaught exception GET /api/kernels\n{TRACE}\n") == {
        RACE
    }


def test_a_kernel_list_500_without_the_trace_stays_an_error() -> None:
    assert (
        kernel_list_races([RACE], "[E] Uncaught exception GET /api/kernels\nKeyError: 'x'") == set()
    )


def test_one_trace_excuses_one_500_and_other_500s_stay_errors() -> None:
    second = RACE.replace("1795715178670", "1795715178999")
    other = RACE.replace("/api/kernels?", "/api/sessions?")
    assert len(kernel_list_races([RACE, second, other], TRACE)) == 1
    assert kernel_list_races([other], TRACE) == set()
