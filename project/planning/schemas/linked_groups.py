"""Schemas of linked block groups (block groups delivered together: one teacher, one room)."""

from __future__ import annotations

from datetime import date
from typing import Annotated
from uuid import UUID

from pydantic import AfterValidator, BeforeValidator, Field

from project.catalogue.schemas import FormIn, StampedOut, required_text, text
from project.core.refs import OrgRefs
from project.core.schemas import CamelSchema
from project.planning.models import BlockGroup


def _at_least_two(value: list[UUID]) -> list[UUID]:
    if len(value) < 2:
        raise ValueError("At least 2 block groups are required to create a linked group")
    return value


class LinkedBlockGroupIn(FormIn):
    """POST /api/linked-block-groups body."""

    name: required_text("Name", 255) = Field(default=None, validate_default=True)
    description: text("Description") = ""
    member_block_group_ids: Annotated[
        list[UUID] | None,
        BeforeValidator(lambda v: [] if v is None else v),
        AfterValidator(lambda v: list(dict.fromkeys(v))),  # the same group twice counts once
        AfterValidator(_at_least_two),
        OrgRefs(BlockGroup, "Block group"),
    ] = Field(default=None, validate_default=True)


class LinkedBlockGroupUpdateIn(FormIn):
    """PUT /api/linked-block-groups/{id} body."""

    name: required_text("Name", 255) = Field(default=None, validate_default=True)
    description: text("Description") = ""


class MemberBlockGroupOut(CamelSchema):
    id: UUID
    code: str
    name: str
    delivery_mode: str
    study_mode: str
    cohort_size: int
    start_date: date
    end_date: date | None


class LinkedMemberOut(CamelSchema):
    id: UUID
    block_group_id: UUID
    block_group: MemberBlockGroupOut


class LinkedBlockGroupOut(StampedOut):
    id: UUID
    name: str
    description: str
    members: list[LinkedMemberOut]  # Ninja lists the related manager's rows


class MemberRemovedOut(CamelSchema):
    """DELETE /api/linked-block-groups/{id}/members/{blockGroupId}: the group left, or ``dissolved`` true
    and ``linkedGroup`` null when fewer than 2 members remained."""

    dissolved: bool
    linked_group: LinkedBlockGroupOut | None
