"""Typed doors to IPython's ``@magic_arguments``: each subcommand declares its parser with
them, so ``%mcp?`` and ``%mcp help NAME`` show argparse's usage for free."""

from __future__ import annotations

from argparse import ArgumentParser, ArgumentTypeError, Namespace
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from IPython.core import magic_arguments as ipython
from IPython.core.error import UsageError

from workbench.magics.parsing import fail, tokenize

F = TypeVar("F", bound=Callable[..., Any])


def magic_arguments(name: str, *, usage: str | None = None) -> Callable[[F], F]:
    """Build the function's parser from its ``@argument`` lines; ``name`` is what the
    usage shows after ``%`` (``"mcp connect"``)."""

    def decorate(func: F) -> F:
        if usage is not None:
            func = ipython.kwds(usage=usage)(func)  # type: ignore[no-untyped-call]
        made: F = ipython.magic_arguments(name=name)(func)  # type: ignore[no-untyped-call]
        return made

    return decorate


def argument(*names: str, **options: Any) -> Callable[[F], F]:
    """One argparse argument, as ``ArgumentParser.add_argument`` takes it."""
    decorate: Callable[[F], F] = ipython.argument(*names, **options)  # type: ignore[no-untyped-call]
    return decorate


def parser_of(func: Callable[..., Any]) -> ArgumentParser:
    """The parser ``magic_arguments`` attached to a function."""
    parser: ArgumentParser = vars(func)["parser"]
    return parser


def parse(func: Callable[..., Any], words: Sequence[str]) -> Namespace:
    """Parse words with the function's parser, options and positionals mixed freely;
    argparse's complaint comes back as a one-line UsageError naming the subcommand."""
    parser = parser_of(func)
    try:
        return parser.parse_intermixed_args(list(words))
    except UsageError as error:
        raise fail(f"%{parser.prog}: {error}") from None


def seconds(value: str) -> float:
    """An argparse type: a number of seconds above zero."""
    number = float(value)
    if not number > 0:
        raise ArgumentTypeError(f"{value} is not a positive number")
    return number


def count(value: str) -> int:
    """An argparse type: a whole number of at least one."""
    number = int(value)
    if number < 1:
        raise ArgumentTypeError(f"{value} is not a whole number of at least 1")
    return number


def port(value: str) -> int:
    """An argparse type: a TCP port number (1-65535)."""
    number = int(value)
    if not 0 < number < 65536:
        raise ArgumentTypeError(f"{value} is not a port number (1-65535)")
    return number


def parse_line(func: Callable[..., Any], line: str) -> Namespace:
    """Split a line into words (quotes group) and parse them with the function's parser."""
    return parse(func, [token.text for token in tokenize(line)])
