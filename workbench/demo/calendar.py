"""The demo calendar: nested input models and the only demo tools with state.

``create_event`` takes one nested object (a time, a list of people, a nullable location, an
enum, a list of tags), which makes it the demo's test bed for forms generated from JSON
Schema; ``list_events`` reads back what it stored. Each server gets its own empty calendar.
"""

import datetime as dt
import itertools
from enum import Enum
from typing import Annotated

from fastmcp import FastMCP
from pydantic import BaseModel, Field

from workbench.demo.tools import hints, register


class Priority(str, Enum):
    """How much an event matters; an enum becomes a choice list in generated forms."""

    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"
    URGENT = "urgent"


class Person(BaseModel):
    """Someone invited to an event."""

    name: str = Field(min_length=1, max_length=100, description="How to address this person.")
    email: str | None = Field(
        default=None,
        pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$",
        json_schema_extra={"format": "email"},  # says what the pattern checks
        description="Where to send the invitation; optional.",
    )


class EventTime(BaseModel):
    """When an event happens, as a day, a start time and a duration."""

    date: dt.date = Field(description="The day, as YYYY-MM-DD.")
    start: dt.time = Field(description="The start time, as HH:MM (24-hour clock).")
    duration_minutes: int = Field(
        default=60, ge=5, le=24 * 60, description="How long it lasts, in minutes."
    )


class Event(BaseModel):
    """A calendar event: nested objects, a list of objects, a nullable field and an enum."""

    title: str = Field(min_length=1, max_length=120, description="What the event is called.")
    when: EventTime = Field(description="When it happens.")
    attendees: list[Person] = Field(
        default_factory=list, max_length=50, description="Who is invited."
    )
    location: str | None = Field(
        default=None, description="Where it happens; null when online or not decided yet."
    )
    priority: Priority = Field(default=Priority.NORMAL, description="How much it matters.")
    tags: list[str] = Field(default_factory=list, max_length=10, description="Free-form labels.")


class ScheduledEvent(BaseModel):
    """An event as the calendar stored it."""

    id: str = Field(description="The calendar's id for the event.")
    event: Event = Field(description="The event as it was validated.")
    starts_at: dt.datetime = Field(description="Start, as an ISO 8601 local date-time.")
    ends_at: dt.datetime = Field(description="End, as an ISO 8601 local date-time.")
    summary: str = Field(description="One line for people.")


def add_calendar_tools(server: FastMCP) -> None:
    """A tiny in-memory calendar: the only state on the server, so the only tool that writes."""
    events: list[ScheduledEvent] = []
    ids = itertools.count(1)

    def create_event(
        event: Annotated[Event, Field(description="The event to put in the calendar.")],
    ) -> ScheduledEvent:
        """Put an event in the demo calendar and return it as stored.

        The argument is a nested object (a time, a list of people, a nullable location, an
        enum, a list of tags), to try forms generated from a JSON Schema.
        """
        starts_at = dt.datetime.combine(event.when.date, event.when.start)
        ends_at = starts_at + dt.timedelta(minutes=event.when.duration_minutes)
        people = len(event.attendees)
        where = f" at {event.location}" if event.location else ""
        scheduled = ScheduledEvent(
            id=f"evt-{next(ids)}",
            event=event,
            starts_at=starts_at,
            ends_at=ends_at,
            summary=(
                f"{event.title!r} on {starts_at:%a %d %b %Y} {starts_at:%H:%M}-{ends_at:%H:%M}"
                f"{where}, {people} attendee{'' if people == 1 else 's'}, "
                f"{event.priority.value} priority."
            ),
        )
        events.append(scheduled)
        return scheduled

    def list_events() -> list[ScheduledEvent]:
        """List the events in the demo calendar, earliest first."""
        # By wall-clock time: a start given with a UTC offset must still sort among naive ones.
        return sorted(events, key=lambda scheduled: scheduled.starts_at.replace(tzinfo=None))

    register(
        server,
        create_event,
        title="Create a calendar event",
        tags={"calendar"},
        # Adds an event and never overwrites one (not destructive); each call adds another.
        annotations=hints(read_only=False, idempotent=False),
    )
    register(
        server, list_events, title="List calendar events", tags={"calendar"}, annotations=hints()
    )
