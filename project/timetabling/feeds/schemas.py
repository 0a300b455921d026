"""Ninja schemas of calendar feeds: the feed request and the feed."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any

from project.catalogue.models import Room
from project.core.refs import OrgRef
from project.core.schemas import BlankToNone, CamelSchema
from project.planning.models import BlockGroup
from project.staff.models import Teacher
from project.timetabling.schemas import _uuid_or_error


class CalendarFeedIn(CamelSchema):
    """Exactly one of teacherId, blockGroupId and roomId (checked by the service)."""

    teacher_id: Annotated[Any, BlankToNone, _uuid_or_error("Teacher not found"), OrgRef(Teacher, "Teacher")] = None
    block_group_id: Annotated[Any, BlankToNone, _uuid_or_error("Block group not found"), OrgRef(BlockGroup, "Block group")] = None
    room_id: Annotated[Any, BlankToNone, _uuid_or_error("Room not found"), OrgRef(Room, "Room")] = None


class CalendarFeedOut(CamelSchema):
    id: uuid.UUID
    url: str
    token: str
    teacher_id: uuid.UUID | None
    block_group_id: uuid.UUID | None
    room_id: uuid.UUID | None = None
    name: str
    created_at: datetime
    last_accessed_at: datetime | None
