"""The result-validation warm-up: ``jsonschema`` is ready soon after a connect, without the
IRI grammar no call needs, and ``iri`` formats are still checked. Fresh interpreters, since
what is imported is the point."""

from __future__ import annotations

import pytest

from tests.processes import modules_after, run_python

CONNECT_AND_WAIT = """
import threading
from workbench import Workbench
wb = Workbench()
wb.connect("demo")
for thread in threading.enumerate():
    if thread.name == "workbench-warm-up":
        thread.join(30)
wb.close()
"""


@pytest.mark.integration
def test_the_first_call_after_connect_never_waits_for_the_iri_grammar() -> None:
    """Run All's first call waited 2.4 s for a background import building this grammar."""
    modules = modules_after(CONNECT_AND_WAIT)
    assert "jsonschema" in modules
    assert "rfc3987_syntax.syntax_helpers" not in modules


@pytest.mark.integration
def test_a_deferred_iri_grammar_still_checks_iri_formats() -> None:
    code = """
import sys
from workbench.mcp.warm_up import defer_iri_grammar
assert defer_iri_grammar()
import jsonschema
assert "rfc3987_syntax.syntax_helpers" not in sys.modules
checker = jsonschema.FormatChecker()
print(checker.conforms("https://example.org/caf\\u00e9", "iri"), checker.conforms("no iri", "iri"))
import rfc3987_syntax
print(type(rfc3987_syntax).__name__, rfc3987_syntax.is_valid_syntax_iri("https://a.b/"))
"""
    lines = run_python(code).stdout.split()
    assert lines == ["True", "False", "module", "True"]


@pytest.mark.integration
def test_a_loaded_iri_grammar_is_left_alone() -> None:
    code = """
import rfc3987_syntax
from workbench.mcp.warm_up import defer_iri_grammar
print(defer_iri_grammar())
"""
    assert run_python(code).stdout.strip() == "False"
