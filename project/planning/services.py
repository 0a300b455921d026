"""Writes of study plans, study plan units, block groups and linked block groups.

docs/behaviour/block-groups.md §1, §2; docs/behaviour/errors.md §9; docs/behaviour/errors.md §1; docs/behaviour/concurrency.md §2; docs/behaviour/live-events.md §4 (one change event per write).
Every function runs in one transaction with its write in one ``org_change`` unit (docs/adr/0028). Errors raised:
``NotFound`` (404, also for another organization's ids, body references included), ``ValidationFailed``
(400), ``DuplicateCode`` (409 ``duplicate_code``), ``Conflict`` (409 ``conflict_state``), ``StaleWrite``
(412).

Deletion rules (decided here; the product contract leaves them open):
- a study plan assigned to block groups is not deleted (409): unassign it first, so that no group's
  hour reconciliation or schedule basis disappears silently;
- a block group is deleted with its sessions, plan assignments and linked-group membership; a linked
  group left with fewer than 2 members is dissolved (deleted) in the same transaction;
- a linked group left with fewer than 2 members after a member removal is dissolved.
"""

from __future__ import annotations

from uuid import UUID

from django.db import IntegrityError, transaction
from django.db.models import F, Max, QuerySet

from project.catalogue.models import Campus, Course, Unit
from project.core.changes import org_change
from project.core.concurrency import assert_fresh
from project.core.errors import Conflict, DuplicateCode, NotFound, ValidationFailed
from project.core.tenancy import Ctx, get_in_org, get_locked
from project.core.writes import save_or_raise
from project.planning.models import (
    ACTUAL_HOUR_FIELDS,
    BALANCE_HOUR_FIELDS,
    BlockGroup,
    BlockGroupStudyPlan,
    LinkedBlockGroup,
    LinkedBlockGroupMember,
    StudyPlan,
    StudyPlanUnit,
)
from project.planning.schemas.block_groups import BlockGroupIn
from project.planning.schemas.linked_groups import LinkedBlockGroupIn, LinkedBlockGroupUpdateIn
from project.planning.schemas.study_plans import StudyPlanCloneIn, StudyPlanIn, StudyPlanUnitIn, StudyPlanUnitUpdateIn

UNIT_ALREADY_IN_PLAN = "This unit is already assigned to this study plan."
PLAN_ALREADY_ASSIGNED = "This study plan is already assigned to this block group."
PLAN_INACTIVE = "Only active study plans can be assigned to a block group."
BLOCK_GROUP_DUPLICATE = "A block group with this code already exists in your organization."

HOUR_FIELDS = ACTUAL_HOUR_FIELDS + BALANCE_HOUR_FIELDS  # the seven hour fields of a study plan unit
PLAN_UNIT_COPY_FIELDS = HOUR_FIELDS + ("unit_id", "sequence_order", "year_level", "is_cluster", "cluster_group")


# --- study plans ------------------------------------------------------------------------------------


def study_plan_create(*, ctx: Ctx, data: StudyPlanIn) -> StudyPlan:
    """Create a study plan of ``ctx.org``."""
    with transaction.atomic():
        plan = StudyPlan(organization=ctx.org, **data.model_dump())
        with org_change(ctx, "study_plan", "created", ids=[plan.pk]):
            plan.save(force_insert=True)
    return plan


def study_plan_update(*, ctx: Ctx, plan_id: UUID | str, data: StudyPlanIn, if_match: str | None) -> StudyPlan:
    """Replace name, description, totalNominalHours and isActive. Raises NotFound, StaleWrite."""
    with transaction.atomic():
        plan = get_locked(StudyPlan, ctx, plan_id, "Study plan")
        assert_fresh(plan, if_match)
        for field, value in data.model_dump().items():
            setattr(plan, field, value)
        with org_change(ctx, "study_plan", "updated", ids=[plan.pk]):
            plan.save()
    return plan


def study_plan_delete(*, ctx: Ctx, plan_id: UUID | str) -> None:
    """Delete a study plan and its units. Raises NotFound, or Conflict while block groups use it."""
    with transaction.atomic():
        plan = get_locked(StudyPlan, ctx, plan_id, "Study plan")
        used = plan.block_group_links.count()
        if used:
            raise Conflict(
                f"This study plan is assigned to {used} block group(s) and cannot be deleted. "
                "Remove it from those block groups first."
            )
        pk = plan.pk
        with org_change(ctx, "study_plan", "deleted", ids=[pk]):
            plan.delete()


def study_plan_clone(*, ctx: Ctx, plan_id: UUID | str, data: StudyPlanCloneIn) -> StudyPlan:
    """Copy a plan under a new name with every unit (all hour fields, order, year level, cluster)."""
    with transaction.atomic():
        source = get_in_org(StudyPlan, ctx.org, plan_id, "Study plan")
        clone = StudyPlan(
            organization=ctx.org,
            name=data.name,
            description=source.description,
            total_nominal_hours=source.total_nominal_hours,
            is_active=source.is_active,
        )
        with org_change(ctx, "study_plan", "created", ids=[clone.pk]):
            clone.save(force_insert=True)
            rows = StudyPlanUnit.objects.for_org(ctx.org).filter(study_plan=source).order_by("sequence_order")
            StudyPlanUnit.objects.for_org(ctx.org).bulk_create(
                [
                    StudyPlanUnit(
                        organization=ctx.org,
                        study_plan=clone,
                        **{f: getattr(row, f) for f in PLAN_UNIT_COPY_FIELDS},
                    )
                    for row in rows
                ]
            )
    return clone


# --- study plan units -------------------------------------------------------------------------------


def _plan_rows(ctx: Ctx, plan: StudyPlan | UUID) -> QuerySet[StudyPlanUnit]:
    return StudyPlanUnit.objects.for_org(ctx.org).filter(study_plan=plan)


def study_plan_unit_add(*, ctx: Ctx, plan_id: UUID | str, data: StudyPlanUnitIn) -> StudyPlanUnit:
    """Add a unit to a plan at ``insertPosition`` (later rows shift by one) or at the end.

    Raises NotFound ("Study plan not found", "Unit not found") or Conflict "This unit is already assigned
    to this study plan.".
    """
    with transaction.atomic():
        plan = get_locked(StudyPlan, ctx, plan_id, "Study plan")  # serialises sequence changes of the plan
        unit = get_in_org(Unit, ctx.org, data.unit_id, "Unit")
        rows = _plan_rows(ctx, plan)
        if rows.filter(unit=unit).exists():
            raise Conflict(UNIT_ALREADY_IN_PLAN)
        last = rows.aggregate(m=Max("sequence_order"))["m"] or 0
        position = data.insert_position
        if position is None or position > last:
            position = last + 1
        fields = data.model_dump(exclude={"study_plan_id", "unit_id", "insert_position"})
        plan_unit = StudyPlanUnit(organization=ctx.org, study_plan=plan, unit=unit, sequence_order=position, **fields)
        with org_change(ctx, "study_plan_unit", "created", ids=[plan_unit.pk]):
            if position <= last:
                rows.filter(sequence_order__gte=position).update(sequence_order=F("sequence_order") + 1)
            save_or_raise(plan_unit, Conflict(UNIT_ALREADY_IN_PLAN))
    return plan_unit


def _move(ctx: Ctx, plan_unit: StudyPlanUnit, target: int) -> None:
    rows = _plan_rows(ctx, plan_unit.study_plan_id).exclude(pk=plan_unit.pk)
    last = (rows.aggregate(m=Max("sequence_order"))["m"] or 0) + 1
    target = min(target, last)
    current = plan_unit.sequence_order
    if target < current:
        rows.filter(sequence_order__gte=target, sequence_order__lt=current).update(sequence_order=F("sequence_order") + 1)
    elif target > current:
        rows.filter(sequence_order__gt=current, sequence_order__lte=target).update(sequence_order=F("sequence_order") - 1)
    plan_unit.sequence_order = target


def study_plan_unit_update(
    *, ctx: Ctx, plan_unit_id: UUID | str, data: StudyPlanUnitUpdateIn, if_match: str | None
) -> StudyPlanUnit:
    """Change the fields sent of a plan unit; ``unitId`` swaps the unit, ``sequenceOrder`` moves the row.

    Raises NotFound, StaleWrite, Conflict (the plan already has that unit).
    """
    with transaction.atomic():
        plan_unit = get_locked(StudyPlanUnit, ctx, plan_unit_id, "Study plan unit")
        get_locked(StudyPlan, ctx, plan_unit.study_plan_id, "Study plan")
        assert_fresh(plan_unit, if_match)
        sent = data.model_dump(exclude_unset=True)
        unit_id = sent.pop("unit_id", None)
        if unit_id is not None and unit_id != plan_unit.unit_id:
            unit = get_in_org(Unit, ctx.org, unit_id, "Unit")
            if _plan_rows(ctx, plan_unit.study_plan_id).filter(unit=unit).exists():
                raise Conflict(UNIT_ALREADY_IN_PLAN)
            plan_unit.unit = unit
        target = sent.pop("sequence_order", None)
        with org_change(ctx, "study_plan_unit", "updated", ids=[plan_unit.pk]):
            if target is not None and target != plan_unit.sequence_order:
                _move(ctx, plan_unit, target)
            for field in sent:
                setattr(plan_unit, field, getattr(data, field))
            save_or_raise(plan_unit, Conflict(UNIT_ALREADY_IN_PLAN))
    return plan_unit


def study_plan_unit_remove(*, ctx: Ctx, plan_id: UUID | str, plan_unit_id: UUID | str) -> None:
    """Remove a unit from a plan and close the gap in sequenceOrder. Raises NotFound."""
    with transaction.atomic():
        plan = get_locked(StudyPlan, ctx, plan_id, "Study plan")
        plan_unit = get_in_org(_plan_rows(ctx, plan), ctx.org, plan_unit_id, "Study plan unit")
        pk, position = plan_unit.pk, plan_unit.sequence_order
        with org_change(ctx, "study_plan_unit", "deleted", ids=[pk]):
            plan_unit.delete()
            _plan_rows(ctx, plan).filter(sequence_order__gt=position).update(sequence_order=F("sequence_order") - 1)


# --- block groups -----------------------------------------------------------------------------------


def _block_group_fields(ctx: Ctx, data: BlockGroupIn, exclude_pk: UUID | None = None) -> dict[str, object]:
    fields = data.model_dump(exclude={"course_id", "campus_id"})
    fields["course"] = get_in_org(Course, ctx.org, data.course_id, "Course") if data.course_id else None
    fields["campus"] = get_in_org(Campus, ctx.org, data.campus_id, "Campus") if data.campus_id else None
    duplicates = BlockGroup.objects.for_org(ctx.org).filter(code__iexact=data.code)
    if exclude_pk is not None:
        duplicates = duplicates.exclude(pk=exclude_pk)
    if duplicates.exists():
        raise DuplicateCode(BLOCK_GROUP_DUPLICATE)
    return fields


def block_group_create(*, ctx: Ctx, data: BlockGroupIn) -> BlockGroup:
    """Create a block group. Raises NotFound (course, campus), DuplicateCode."""
    with transaction.atomic():
        group = BlockGroup(organization=ctx.org, **_block_group_fields(ctx, data))
        with org_change(ctx, "block_group", "created", ids=[group.pk]):
            save_or_raise(group, DuplicateCode(BLOCK_GROUP_DUPLICATE))
    return group


def block_group_update(*, ctx: Ctx, block_group_id: UUID | str, data: BlockGroupIn, if_match: str | None) -> BlockGroup:
    """Replace every field of a block group. Raises NotFound, StaleWrite, DuplicateCode."""
    with transaction.atomic():
        group = get_locked(BlockGroup, ctx, block_group_id, "Block group")
        assert_fresh(group, if_match)
        for field, value in _block_group_fields(ctx, data, exclude_pk=group.pk).items():
            setattr(group, field, value)
        with org_change(ctx, "block_group", "updated", ids=[group.pk]):
            save_or_raise(group, DuplicateCode(BLOCK_GROUP_DUPLICATE))
    return group


def block_group_delete(*, ctx: Ctx, block_group_id: UUID | str) -> None:
    """Delete a block group with its sessions and plan assignments; dissolve its linked group when fewer
    than 2 members would remain. Raises NotFound."""
    with transaction.atomic():
        group = get_locked(BlockGroup, ctx, block_group_id, "Block group")
        membership = LinkedBlockGroupMember.objects.for_org(ctx.org).filter(block_group=group).first()
        pk = group.pk
        with org_change(ctx, "block_group", "deleted", ids=[pk]):
            group.delete()
            if membership is not None:
                linked = LinkedBlockGroup.objects.for_org(ctx.org).filter(pk=membership.linked_group_id).first()
                if linked is not None and linked.members.count() < 2:
                    linked.delete()


def block_group_assign_plan(*, ctx: Ctx, block_group_id: UUID | str, study_plan_id: UUID | str | None) -> BlockGroupStudyPlan:
    """Assign an active study plan to a block group (after the plans already assigned).

    Raises NotFound ("Block group not found", "Study plan not found"), ValidationFailed at
    ``studyPlanId`` for an inactive plan, Conflict when the plan is already assigned.
    """
    with transaction.atomic():
        group = get_locked(BlockGroup, ctx, block_group_id, "Block group")
        plan = get_in_org(StudyPlan, ctx.org, study_plan_id, "Study plan")
        if not plan.is_active:
            raise ValidationFailed.field("studyPlanId", PLAN_INACTIVE)
        if BlockGroupStudyPlan.objects.for_org(ctx.org).filter(block_group=group, study_plan=plan).exists():
            raise Conflict(PLAN_ALREADY_ASSIGNED)
        link = BlockGroupStudyPlan(organization=ctx.org, block_group=group, study_plan=plan)
        with org_change(ctx, "block_group_study_plan", "created", ids=[link.pk]):
            save_or_raise(link, Conflict(PLAN_ALREADY_ASSIGNED))
    return link


def block_group_unassign_plan(*, ctx: Ctx, block_group_id: UUID | str, study_plan_id: UUID | str) -> None:
    """Remove a study plan (by its id) from a block group; sessions are kept. Raises NotFound."""
    with transaction.atomic():
        group = get_locked(BlockGroup, ctx, block_group_id, "Block group")
        link = BlockGroupStudyPlan.objects.for_org(ctx.org).filter(block_group=group, study_plan_id=study_plan_id).first()
        if link is None:
            raise NotFound("Study plan not found")
        pk = link.pk
        with org_change(ctx, "block_group_study_plan", "deleted", ids=[pk]):
            link.delete()


# --- linked block groups ----------------------------------------------------------------------------


def linked_group_create(*, ctx: Ctx, data: LinkedBlockGroupIn) -> LinkedBlockGroup:
    """Link 2 or more block groups. Raises NotFound "Block group not found" for an id not of the
    organization, Conflict when a group is already in a linked group (a group is in at most one)."""
    with transaction.atomic():
        ids = data.member_block_group_ids
        groups = {g.pk: g for g in BlockGroup.objects.for_org(ctx.org).select_for_update().filter(pk__in=ids)}
        if len(groups) != len(ids):
            raise NotFound("Block group not found")
        taken = (
            LinkedBlockGroupMember.objects.for_org(ctx.org)
            .filter(block_group_id__in=ids)
            .select_related("block_group", "linked_group")
            .order_by("block_group__code")
            .first()
        )
        if taken is not None:
            raise Conflict(
                f"Block group {taken.block_group.code} is already in the linked group "
                f'"{taken.linked_group.name}". A block group can be in only one linked group.'
            )
        linked = LinkedBlockGroup(organization=ctx.org, name=data.name, description=data.description)
        with org_change(ctx, "linked_block_group", "created", ids=[linked.pk]):
            linked.save(force_insert=True)
            try:
                with transaction.atomic():
                    LinkedBlockGroupMember.objects.for_org(ctx.org).bulk_create(
                        [LinkedBlockGroupMember(organization=ctx.org, linked_group=linked, block_group=groups[i]) for i in ids]
                    )
            except IntegrityError:
                raise Conflict("A block group can be in only one linked group.") from None
    return linked


def linked_group_update(
    *, ctx: Ctx, linked_group_id: UUID | str, data: LinkedBlockGroupUpdateIn, if_match: str | None
) -> LinkedBlockGroup:
    """Change name and description. Raises NotFound, StaleWrite."""
    with transaction.atomic():
        linked = get_locked(LinkedBlockGroup, ctx, linked_group_id, "Linked block group")
        assert_fresh(linked, if_match)
        linked.name = data.name
        linked.description = data.description
        with org_change(ctx, "linked_block_group", "updated", ids=[linked.pk]):
            linked.save()
    return linked


def linked_group_delete(*, ctx: Ctx, linked_group_id: UUID | str) -> None:
    """Delete a linked group (the block groups stay). Raises NotFound."""
    with transaction.atomic():
        linked = get_locked(LinkedBlockGroup, ctx, linked_group_id, "Linked block group")
        pk = linked.pk
        with org_change(ctx, "linked_block_group", "deleted", ids=[pk]):
            linked.delete()


def linked_group_remove_member(*, ctx: Ctx, linked_group_id: UUID | str, block_group_id: UUID | str) -> bool:
    """Take a block group out of a linked group; dissolve (delete) the linked group when fewer than 2
    members remain. Returns True when dissolved. Raises NotFound."""
    with transaction.atomic():
        linked = get_locked(LinkedBlockGroup, ctx, linked_group_id, "Linked block group")
        member = (
            LinkedBlockGroupMember.objects.for_org(ctx.org).filter(linked_group=linked, block_group_id=block_group_id).first()
        )
        if member is None:
            raise NotFound("Block group not found in this linked group")
        dissolve = linked.members.exclude(pk=member.pk).count() < 2
        with org_change(ctx, "linked_block_group", "deleted" if dissolve else "updated", ids=[linked.pk]):
            member.delete()
            if dissolve:
                linked.delete()
                return True
            linked.save()  # a new updatedAt: the membership changed
            return False
