"""Teacher leave schemas (ADR 0014).

``LeaveIn`` is the body of POST and PUT /api/teachers/{id}/leave[/{leaveId}] (the same form):
``startDate`` and ``endDate`` required (``YYYY-MM-DD``, inclusive, the end on or after the start), and
optionally ``startTime`` and ``endTime`` together (``HH:MM`` or ``HH:MM:SS``, the end after the start):
part-day leave, those hours of each day of the period. ``reason`` is free text (at most 255 characters).
"""

from __future__ import annotations

import uuid
from datetime import date, time
from typing import Annotated

from pydantic import Field

from project.core.schemas import BlankToNone, FormIn, StampedOut, in_date_range, not_before, required, text

MSG_START = "Start date is required"
MSG_END = "End date is required"
MSG_ORDER = "End date must be on or after start date"
MSG_END_TIME = "End time is required with a start time"
MSG_START_TIME = "Start time is required with an end time"
MSG_TIME_ORDER = "End time must be after start time"


class LeaveIn(FormIn):
    """POST and PUT /api/teachers/{id}/leave body."""

    start_date: Annotated[date | None, BlankToNone, required(MSG_START), in_date_range("Start date")] = Field(
        default=None, validate_default=True
    )
    end_date: Annotated[
        date | None, BlankToNone, required(MSG_END), in_date_range("End date"), not_before("start_date", MSG_ORDER)
    ] = Field(default=None, validate_default=True)
    start_time: Annotated[time | None, BlankToNone] = None
    end_time: Annotated[time | None, BlankToNone] = None
    reason: text("Reason", 255) = ""


class LeaveOut(StampedOut):
    """A teacher's leave: dates ``YYYY-MM-DD`` inclusive; times ``HH:MM:SS`` or null for whole days."""

    id: uuid.UUID
    teacher_id: uuid.UUID
    start_date: date
    end_date: date
    start_time: time | None
    end_time: time | None
    reason: str
