"""The notebook tests' reader of outputs reads a cell's text the same however a busy kernel
split its streams."""

from tests.notebooks.executed import shown_by


def stream(text: str) -> dict[str, str]:
    return {"output_type": "stream", "name": "stdout", "text": text}


def test_two_print_lines_sent_as_two_stream_outputs_read_as_two_lines() -> None:
    """test_the_proxy_pair once read an empty second line: under load the kernel sent the
    cell's two print lines as two stream outputs, and a line break was added between them."""
    split = [stream("[Tool error] first\n"), stream("[Tool error] second\n")]
    whole = [stream("[Tool error] first\n[Tool error] second\n")]
    assert shown_by(split).splitlines() == ["[Tool error] first", "[Tool error] second"]
    assert shown_by(split) == shown_by(whole)


def test_a_display_after_a_stream_starts_on_a_line_of_its_own() -> None:
    display = {"output_type": "execute_result", "data": {"text/plain": "42"}}
    assert shown_by([stream("no newline"), display]).splitlines() == ["no newline", "42"]
    assert shown_by([display, display]).splitlines() == ["42", "42"]


def test_a_print_split_inside_its_line_reads_as_one_line() -> None:
    """A busy kernel split ``print("pages:", pages)`` between its words (seen in a run)."""
    split = [stream("pages:"), stream(" [['a', 'b'], ['c']]\n")]
    assert shown_by(split) == "pages: [['a', 'b'], ['c']]\n"
