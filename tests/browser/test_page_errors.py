"""The page-error filter excuses jupyter_server's kernel-list race only with its evidence: an
uncaught GET /api/kernels in the server's log whose traceback fails in ``kernel_model`` on
``last_activity`` (both shapes jupyter_server has logged it in)."""

from __future__ import annotations

from tests.browser.jupyter_browser import kernel_list_races

RACE = (
    "Failed to load resource: the server responded with a status of 500 (Internal Server Error)"
    " (http://127.0.0.1:41587/api/kernels?1795715178670)"
)
UNCAUGHT = "[E 2026-11-26 19:30:00.163 ServerApp] Uncaught exception GET /api/kernels?17957 (::1)"
THROUGH_MODEL = (
    '      File "jupyter_server/services/kernels/kernelmanager.py", line 544, in kernel_model\n'
    '        "last_activity": isoformat(kernel.last_activity),\n'
)
AS_TRAIT = (
    "    traitlets.traitlets.TraitError: The 'last_activity' trait of a ServerKernelManager "
    "instance expected a datetime, not the NoneType None.\n"
)
AS_ATTRIBUTE = (
    "    AttributeError: 'AsyncIOLoopKernelManager' object has no attribute 'last_activity'\n"
)
NEXT = "[E 2026-11-26 19:30:00.181 ServerApp] 500 GET /api/kernels?17957 (::1) 25.24ms\n"


def log(*tracebacks: str) -> str:
    return "".join(
        f"{UNCAUGHT}\n    Traceback (most recent call last):\n{t}{NEXT}" for t in tracebacks
    )


def test_a_kernel_list_500_is_excused_when_the_log_shows_the_race_either_way() -> None:
    assert kernel_list_races([RACE], log(THROUGH_MODEL + AS_TRAIT)) == {RACE}
    assert kernel_list_races([RACE], log(THROUGH_MODEL + AS_ATTRIBUTE)) == {RACE}


def test_a_kernel_list_500_with_another_cause_stays_an_error() -> None:
    other = "      File \"handlers.py\", line 41, in get\n    KeyError: 'sessions'\n"
    assert kernel_list_races([RACE], log(other)) == set()
    assert kernel_list_races([RACE], THROUGH_MODEL + AS_TRAIT) == set()  # not an uncaught GET


def test_one_trace_excuses_one_500_and_other_500s_stay_errors() -> None:
    second = RACE.replace("1795715178670", "1795715178999")
    other = RACE.replace("/api/kernels?", "/api/sessions?")
    assert len(kernel_list_races([RACE, second, other], log(THROUGH_MODEL + AS_TRAIT))) == 1
    assert kernel_list_races([other], log(THROUGH_MODEL + AS_TRAIT)) == set()
    assert len(kernel_list_races([RACE, second], log(*[THROUGH_MODEL + AS_TRAIT] * 2))) == 2
