"""Study plans, study plan units, block groups and linked block groups (docs/behaviour/block-groups.md §5).

Thin router: parse, call one selector or service, answer. Errors (docs/behaviour/errors.md §2): 400
``validation_error``; 404 "<Thing> not found" for unknown ids and any id of another organization;
409 ``duplicate_code`` (block group code), 409 ``conflict_state`` (already assigned, in use, already
linked); 412 ``stale`` when ``If-Match`` no longer matches ``updatedAt``. Detail GETs and PUTs send
``ETag``. Scheduling (``/block-groups/{id}/schedule``) lives in ``project.timetabling``.
"""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from django.db.models import QuerySet
from django.http import HttpResponse
from ninja import Query
from pydantic import Field

from project.core.auth import AuthedRequest
from project.core.concurrency import if_match_header, with_etag
from project.core.refs import OrgRefs
from project.core.response_cache import cached_json
from project.core.routers import make_router
from project.core.schemas import CamelSchema, ErrorOut, at_least, at_most
from project.planning import selectors, services
from project.planning.models import BlockGroup, BlockGroupStudyPlan, LinkedBlockGroup, StudyPlan, StudyPlanUnit
from project.planning.schemas.block_groups import (
    BlockGroupIn,
    BlockGroupOut,
    BlockGroupStudyPlanIn,
    BlockGroupStudyPlanOut,
    BlockGroupUnitOut,
    HourReconciliationOut,
    SchedulingInfoOut,
    TimetabledUnitOut,
)
from project.planning.schemas.linked_groups import (
    LinkedBlockGroupIn,
    LinkedBlockGroupOut,
    LinkedBlockGroupUpdateIn,
    MemberRemovedOut,
)
from project.planning.schemas.study_plans import (
    StudyPlanCloneIn,
    StudyPlanIn,
    StudyPlanOut,
    StudyPlanUnitIn,
    StudyPlanUnitOut,
    StudyPlanUnitUpdateIn,
)

router = make_router(tags=["planning"])

ERRORS = {400: ErrorOut, 404: ErrorOut, 409: ErrorOut, 412: ErrorOut}
NOT_FOUND = {404: ErrorOut}


# --- study plans ------------------------------------------------------------------------------------


@router.get("/study-plans", response=list[StudyPlanOut])
def list_study_plans(request: AuthedRequest) -> QuerySet[StudyPlan]:
    """All study plans with totalActualHours, totalSelfDirectedHours, efficiency (%) and unitCount, by name."""
    return selectors.study_plan_list(org=request.auth.org)


@router.get("/study-plans/{uuid:plan_id}", response={200: StudyPlanOut, **NOT_FOUND})
def get_study_plan(request: AuthedRequest, plan_id: UUID, response: HttpResponse) -> StudyPlan:
    """One study plan with its totals; sends ``ETag``. 404 "Study plan not found"."""
    return with_etag(response, selectors.study_plan_get(org=request.auth.org, plan_id=plan_id))


@router.post("/study-plans", response={201: StudyPlanOut, **ERRORS})
def create_study_plan(request: AuthedRequest, payload: StudyPlanIn) -> tuple[int, StudyPlan]:
    """Create a study plan: name, description, totalNominalHours (integer >= 1), isActive."""
    plan = services.study_plan_create(ctx=request.auth, data=payload)
    return 201, selectors.study_plan_get(org=request.auth.org, plan_id=plan.pk)


@router.put("/study-plans/{uuid:plan_id}", response={200: StudyPlanOut, **ERRORS})
def update_study_plan(request: AuthedRequest, plan_id: UUID, payload: StudyPlanIn, response: HttpResponse) -> StudyPlan:
    """Replace a study plan (body as POST). Honours ``If-Match`` (412); sends the new ``ETag``."""
    services.study_plan_update(ctx=request.auth, plan_id=plan_id, data=payload, if_match=if_match_header(request))
    return with_etag(response, selectors.study_plan_get(org=request.auth.org, plan_id=plan_id))


@router.delete("/study-plans/{uuid:plan_id}", response={204: None, 404: ErrorOut, 409: ErrorOut})
def delete_study_plan(request: AuthedRequest, plan_id: UUID) -> tuple[int, None]:
    """Delete a study plan and its units: 204; 409 while assigned to a block group."""
    services.study_plan_delete(ctx=request.auth, plan_id=plan_id)
    return 204, None


@router.post("/study-plans/{uuid:plan_id}/clone", response={201: StudyPlanOut, **ERRORS})
def clone_study_plan(request: AuthedRequest, plan_id: UUID, payload: StudyPlanCloneIn) -> tuple[int, StudyPlan]:
    """Copy a plan with all its units under ``name`` (non-blank after trimming). 201 with the new plan."""
    clone = services.study_plan_clone(ctx=request.auth, plan_id=plan_id, data=payload)
    return 201, selectors.study_plan_get(org=request.auth.org, plan_id=clone.pk)


@router.get("/study-plans/{uuid:plan_id}/units", response={200: list[StudyPlanUnitOut], **NOT_FOUND})
def list_study_plan_units(request: AuthedRequest, plan_id: UUID) -> list[StudyPlanUnit]:
    """The plan's units in sequenceOrder, each with its unit {id, code, name, nominalHours, isCore},
    totalActualHours and selfDirectedHours (hours). 404 "Study plan not found"."""
    return selectors.study_plan_units(org=request.auth.org, plan_id=plan_id)


@router.post("/study-plans/{uuid:plan_id}/units", response={201: StudyPlanUnitOut, **ERRORS})
def add_study_plan_unit(request: AuthedRequest, plan_id: UUID, payload: StudyPlanUnitIn) -> tuple[int, StudyPlanUnit]:
    """Add a unit (unitId, yearLevel 1-4, the seven hour fields >= 0, isCluster, clusterGroup, optional
    insertPosition >= 1). 404 plan or unit; 409 "This unit is already assigned to this study plan."."""
    plan_unit = services.study_plan_unit_add(ctx=request.auth, plan_id=plan_id, data=payload)
    return 201, selectors.study_plan_unit_get(org=request.auth.org, plan_unit_id=plan_unit.pk)


@router.put("/study-plan-units/{uuid:plan_unit_id}", response={200: StudyPlanUnitOut, **ERRORS})
def update_study_plan_unit(
    request: AuthedRequest, plan_unit_id: UUID, payload: StudyPlanUnitUpdateIn, response: HttpResponse
) -> StudyPlanUnit:
    """Change a plan unit (the fields sent). Honours ``If-Match`` (412); sends the new ``ETag``."""
    services.study_plan_unit_update(ctx=request.auth, plan_unit_id=plan_unit_id, data=payload, if_match=if_match_header(request))
    return with_etag(response, selectors.study_plan_unit_get(org=request.auth.org, plan_unit_id=plan_unit_id))


@router.delete("/study-plans/{uuid:plan_id}/units/{uuid:plan_unit_id}", response={204: None, **NOT_FOUND})
def remove_study_plan_unit(request: AuthedRequest, plan_id: UUID, plan_unit_id: UUID) -> tuple[int, None]:
    """Remove a unit from the plan (by study plan unit id); later units move up one. 204."""
    services.study_plan_unit_remove(ctx=request.auth, plan_id=plan_id, plan_unit_id=plan_unit_id)
    return 204, None


@router.get("/study-plans/{uuid:plan_id}/cluster-names", response={200: list[str], **NOT_FOUND})
def list_cluster_names(request: AuthedRequest, plan_id: UUID) -> list[str]:
    """Distinct non-empty clusterGroup names of the plan's units, sorted."""
    return selectors.study_plan_cluster_names(org=request.auth.org, plan_id=plan_id)


# --- block groups -----------------------------------------------------------------------------------


class BlockGroupFilters(CamelSchema):
    status: list[str] = Field(default_factory=list)
    course: list[str] = Field(default_factory=list)
    study_mode: list[str] = Field(default_factory=list)
    study_plan: Annotated[list[UUID], Field(default_factory=list), OrgRefs(StudyPlan, "Study plan")]


@router.get("/block-groups", response=list[BlockGroupOut])
def list_block_groups(request: AuthedRequest, filters: Query[BlockGroupFilters]) -> HttpResponse:
    """Block groups ordered by code, filtered by repeated query parameters ``status``, ``course`` (course
    code), ``studyMode`` and ``studyPlan`` (study plan id: the groups it is assigned to; ADR 0018) (no
    parameter: no filter). Three queries whatever the count."""
    # Two queries now, rows dumped without per-field validation (ADR 0013); BlockGroupOut stays the contract.
    return cached_json(
        request,
        "block-groups",
        {
            "status": filters.status,
            "course": filters.course,
            "studyMode": filters.study_mode,
            "studyPlan": sorted(str(i) for i in filters.study_plan),
        },
        lambda: selectors.block_group_list_rows(
            org=request.auth.org,
            statuses=filters.status,
            course_codes=filters.course,
            study_modes=filters.study_mode,
            study_plan_ids=filters.study_plan,
        ),
    )


@router.get("/block-groups/{uuid:block_group_id}", response={200: BlockGroupOut, **NOT_FOUND})
def get_block_group(request: AuthedRequest, block_group_id: UUID, response: HttpResponse) -> BlockGroup:
    """One block group; sends ``ETag``. 404 "Block group not found"."""
    return with_etag(response, selectors.block_group_get(org=request.auth.org, block_group_id=block_group_id))


@router.post("/block-groups", response={201: BlockGroupOut, **ERRORS})
def create_block_group(request: AuthedRequest, payload: BlockGroupIn) -> tuple[int, BlockGroup]:
    """Create a block group (docs/behaviour/block-groups.md §1). 404 for a courseId/campusId not of the
    organization; 409 ``duplicate_code``."""
    group = services.block_group_create(ctx=request.auth, data=payload)
    return 201, selectors.block_group_get(org=request.auth.org, block_group_id=group.pk)


@router.put("/block-groups/{uuid:block_group_id}", response={200: BlockGroupOut, **ERRORS})
def update_block_group(request: AuthedRequest, block_group_id: UUID, payload: BlockGroupIn, response: HttpResponse) -> BlockGroup:
    """Replace a block group (body as POST). Honours ``If-Match`` (412); sends the new ``ETag``."""
    services.block_group_update(ctx=request.auth, block_group_id=block_group_id, data=payload, if_match=if_match_header(request))
    return with_etag(response, selectors.block_group_get(org=request.auth.org, block_group_id=block_group_id))


@router.delete("/block-groups/{uuid:block_group_id}", response={204: None, **NOT_FOUND})
def delete_block_group(request: AuthedRequest, block_group_id: UUID) -> tuple[int, None]:
    """Delete a block group with its timetable sessions and plan assignments. 204."""
    services.block_group_delete(ctx=request.auth, block_group_id=block_group_id)
    return 204, None


@router.get("/block-groups/{uuid:block_group_id}/study-plans", response={200: list[BlockGroupStudyPlanOut], **NOT_FOUND})
def list_block_group_study_plans(request: AuthedRequest, block_group_id: UUID) -> list[BlockGroupStudyPlan]:
    """The assigned plans in assignment order, each with its units (four actual hour fields, unit)."""
    return selectors.block_group_study_plans(org=request.auth.org, block_group_id=block_group_id)


@router.post("/block-groups/{uuid:block_group_id}/study-plans", response={201: BlockGroupStudyPlanOut, **ERRORS})
def assign_study_plan(
    request: AuthedRequest, block_group_id: UUID, payload: BlockGroupStudyPlanIn
) -> tuple[int, BlockGroupStudyPlan]:
    """Assign an active study plan. 400 for an inactive plan; 404 group or plan; 409 already assigned."""
    link = services.block_group_assign_plan(ctx=request.auth, block_group_id=block_group_id, study_plan_id=payload.study_plan_id)
    links = selectors.block_group_study_plans(org=request.auth.org, block_group_id=block_group_id)
    return 201, next(item for item in links if item.pk == link.pk)


@router.delete("/block-groups/{uuid:block_group_id}/study-plans/{uuid:study_plan_id}", response={204: None, **NOT_FOUND})
def unassign_study_plan(request: AuthedRequest, block_group_id: UUID, study_plan_id: UUID) -> tuple[int, None]:
    """Remove an assigned study plan (by the plan's id) from the group. 204; 404 when not assigned."""
    services.block_group_unassign_plan(ctx=request.auth, block_group_id=block_group_id, study_plan_id=study_plan_id)
    return 204, None


@router.get("/block-groups/{uuid:block_group_id}/scheduling-info", response={200: SchedulingInfoOut, **NOT_FOUND})
def scheduling_info(request: AuthedRequest, block_group_id: UUID) -> dict[str, object]:
    """What the Schedule dialog needs: the group, its plans' units with facilitated/actual/nominal/
    timetabled hours, totalFacilitatedHours, remainingFacilitatedHours, existingSessionCount,
    estimatedSessions and estimatedWeeks (see the selector)."""
    return selectors.block_group_scheduling_info(org=request.auth.org, block_group_id=block_group_id)


@router.get("/block-groups/{uuid:block_group_id}/hour-reconciliation", response={200: HourReconciliationOut, **NOT_FOUND})
def hour_reconciliation(request: AuthedRequest, block_group_id: UUID) -> dict[str, object]:
    """Hour totals over the assigned study plans (docs/behaviour/study-plans.md §2), in hours; efficiencyRate in percent."""
    return selectors.block_group_hour_reconciliation(org=request.auth.org, block_group_id=block_group_id)


@router.get("/block-groups/{uuid:block_group_id}/timetabled-units", response={200: list[TimetabledUnitOut], **NOT_FOUND})
def timetabled_units(request: AuthedRequest, block_group_id: UUID) -> list[dict[str, object]]:
    """Per unit: nominal hours and the hours timetabled for this group (non-cancelled sessions)."""
    return selectors.block_group_timetabled_units(org=request.auth.org, block_group_id=block_group_id)


class YearLevelQuery(CamelSchema):
    year_level: Annotated[int | None, at_least(1, "Year level must be at least 1"), at_most(4, "Year level cannot exceed 4")] = (
        None
    )


@router.get("/block-groups/{uuid:block_group_id}/units", response={200: list[BlockGroupUnitOut], **ERRORS})
def block_group_units(request: AuthedRequest, block_group_id: UUID, query: Query[YearLevelQuery]) -> list[dict[str, object]]:
    """Units of the assigned study plans, of year level ``yearLevel`` (1-4) when given."""
    return selectors.block_group_units(org=request.auth.org, block_group_id=block_group_id, year_level=query.year_level)


# --- linked block groups ----------------------------------------------------------------------------


@router.get("/linked-block-groups", response=list[LinkedBlockGroupOut])
def list_linked_groups(request: AuthedRequest) -> QuerySet[LinkedBlockGroup]:
    """All linked groups by name, each with its members and their block group. Two queries."""
    return selectors.linked_group_list(org=request.auth.org)


@router.get("/linked-block-groups/{uuid:linked_group_id}", response={200: LinkedBlockGroupOut, **NOT_FOUND})
def get_linked_group(request: AuthedRequest, linked_group_id: UUID, response: HttpResponse) -> LinkedBlockGroup:
    """One linked group; sends ``ETag``. 404 "Linked block group not found"."""
    return with_etag(response, selectors.linked_group_get(org=request.auth.org, linked_group_id=linked_group_id))


@router.post("/linked-block-groups", response={201: LinkedBlockGroupOut, **ERRORS})
def create_linked_group(request: AuthedRequest, payload: LinkedBlockGroupIn) -> tuple[int, LinkedBlockGroup]:
    """Link block groups: name, description, memberBlockGroupIds (at least 2). 404 for an id not of the
    organization; 409 when a group is already linked."""
    linked = services.linked_group_create(ctx=request.auth, data=payload)
    return 201, selectors.linked_group_get(org=request.auth.org, linked_group_id=linked.pk)


@router.put("/linked-block-groups/{uuid:linked_group_id}", response={200: LinkedBlockGroupOut, **ERRORS})
def update_linked_group(
    request: AuthedRequest, linked_group_id: UUID, payload: LinkedBlockGroupUpdateIn, response: HttpResponse
) -> LinkedBlockGroup:
    """Change name and description. Honours ``If-Match`` (412); sends the new ``ETag``."""
    services.linked_group_update(
        ctx=request.auth, linked_group_id=linked_group_id, data=payload, if_match=if_match_header(request)
    )
    return with_etag(response, selectors.linked_group_get(org=request.auth.org, linked_group_id=linked_group_id))


@router.delete("/linked-block-groups/{uuid:linked_group_id}", response={204: None, **NOT_FOUND})
def delete_linked_group(request: AuthedRequest, linked_group_id: UUID) -> tuple[int, None]:
    """Delete a linked group; its block groups stay. 204."""
    services.linked_group_delete(ctx=request.auth, linked_group_id=linked_group_id)
    return 204, None


@router.delete(
    "/linked-block-groups/{uuid:linked_group_id}/members/{uuid:block_group_id}",
    response={200: MemberRemovedOut, **NOT_FOUND},
)
def remove_linked_member(request: AuthedRequest, linked_group_id: UUID, block_group_id: UUID) -> dict[str, object]:
    """Take a block group out of the linked group. ``{dissolved, linkedGroup}``: a group left with fewer
    than 2 members is deleted (dissolved true, linkedGroup null)."""
    dissolved = services.linked_group_remove_member(
        ctx=request.auth, linked_group_id=linked_group_id, block_group_id=block_group_id
    )
    linked = None if dissolved else selectors.linked_group_get(org=request.auth.org, linked_group_id=linked_group_id)
    return {"dissolved": dissolved, "linked_group": linked}
