"""The form's description: a tree of frozen ``FormField`` dataclasses, one kind per input.

``schema.py`` builds the tree from a JSON Schema, ``values.py`` converts its values, and the
views draw it. A field's ``path`` names it the way ``FormError`` does: ``people[].name`` in
the tree (``[]`` for "any item", ``<1>`` for a choice's option), ``people[0].name`` once the
form holds values. The validator names places differently (``people.0.name``);
``validator_path`` translates.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

ROOT_PATH = "(arguments)"
"""The path that names the arguments as a whole in ``fallbacks()``, ``FormError`` and the
validator's problems."""


def join(path: str, name: str) -> str:
    """The path of property ``name`` inside the field at ``path``."""
    return f"{path}.{name}" if path else name


def path_class(path: str) -> str:
    """The CSS class that names the input at ``path``: ``wb-path-`` and the path with every
    character but ASCII letters, digits and ``_`` replaced by ``-``."""
    return "wb-path-" + re.sub(r"[^A-Za-z0-9_]", "-", path or ROOT_PATH)


def validator_path(path: str) -> str:
    """A form path (``people[0].name``) as the validator writes it (``people.0.name``)."""
    if not path or path == ROOT_PATH:
        return ROOT_PATH
    return re.sub(r"\[(\d+)\]", r".\1", path).lstrip(".")


@dataclass(frozen=True, kw_only=True)
class FormField:
    """One field of a form; subclasses add what their kind needs."""

    KIND: ClassVar[str] = "field"
    name: str = ""
    path: str = ""
    title: str | None = None
    description: str | None = None
    default: Any = None
    has_default: bool = False
    required: bool = False
    nullable: bool = False
    label: str | None = None

    @property
    def kind(self) -> str:
        """The kind of input: string, number, integer, boolean, array, object, choice, ..."""
        return self.KIND

    @property
    def display_name(self) -> str:
        """The title to show, else the name."""
        return self.title or self.label or self.name or ROOT_PATH

    def children(self) -> tuple[FormField, ...]:
        """The fields directly inside this one."""
        return ()

    def walk(self) -> Iterator[FormField]:
        """This field and every field inside it, depth first."""
        yield self
        for child in self.children():
            yield from child.walk()

    def fallbacks(self) -> list[str]:
        """The paths of every field that fell back to the raw-JSON editor."""
        return [field.path or ROOT_PATH for field in self.walk() if isinstance(field, JsonField)]

    @property
    def is_complete(self) -> bool:
        """True when nothing in this tree fell back to the raw-JSON editor."""
        return not self.fallbacks()


@dataclass(frozen=True, kw_only=True)
class JsonField(FormField):
    """The raw-JSON editor, for what the form cannot express; ``reason`` says why."""

    KIND: ClassVar[str] = "json"
    reason: str = ""
    schema: Any = None


@dataclass(frozen=True, kw_only=True)
class StringField(FormField):
    """Text; ``choices`` for an enum, ``format`` as a hint (date, email, uri, ...).

    The constraints feed the input's placeholder; the registry's validator checks them."""

    KIND: ClassVar[str] = "string"
    choices: tuple[Any, ...] = ()
    format: str | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None


@dataclass(frozen=True, kw_only=True)
class NumberField(FormField):
    """A number, or a whole number when ``integer``, with its bounds (for the placeholder)."""

    KIND: ClassVar[str] = "number"
    integer: bool = False
    choices: tuple[Any, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: float | None = None
    exclusive_maximum: float | None = None
    multiple_of: float | None = None

    @property
    def kind(self) -> str:
        """``integer`` or ``number``."""
        return "integer" if self.integer else "number"


@dataclass(frozen=True, kw_only=True)
class BooleanField(FormField):
    """A checkbox."""

    KIND: ClassVar[str] = "boolean"


@dataclass(frozen=True, kw_only=True)
class ArrayField(FormField):
    """A list of ``item`` fields (add / remove; adding stops at ``max_items``)."""

    KIND: ClassVar[str] = "array"
    item: FormField = JsonField()
    min_items: int | None = None
    max_items: int | None = None
    unique_items: bool = False

    def children(self) -> tuple[FormField, ...]:
        """The item field."""
        return (self.item,)


@dataclass(frozen=True, kw_only=True)
class ObjectField(FormField):
    """Named properties in schema order, each marked ``required`` or not."""

    KIND: ClassVar[str] = "object"
    properties: tuple[FormField, ...] = ()

    def children(self) -> tuple[FormField, ...]:
        """The properties."""
        return self.properties


@dataclass(frozen=True, kw_only=True)
class ChoiceField(FormField):
    """anyOf / oneOf: a type selector over ``options``, each labelled."""

    KIND: ClassVar[str] = "choice"
    options: tuple[FormField, ...] = ()

    def children(self) -> tuple[FormField, ...]:
        """The options."""
        return self.options


@dataclass(frozen=True, kw_only=True)
class ConstField(FormField):
    """A fixed value, shown but not edited."""

    KIND: ClassVar[str] = "const"
    value: Any = None
