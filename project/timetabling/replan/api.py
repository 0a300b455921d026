"""Re-planning around late changes (ADR 0015): ``GET /api/replan/impact``. Thin: parse, call, answer."""

from __future__ import annotations

from django.http import HttpResponse
from ninja import Query

from project.core.auth import AuthedRequest
from project.core.errors import ValidationFailed
from project.core.responses import json_response
from project.core.routers import make_router
from project.core.schemas import ErrorOut
from project.timetabling.replan import services as replan
from project.timetabling.replan.schemas import (
    ChangeFields,
    ImpactOut,
    ImpactQuery,
    ReplanAppliedOut,
    ReplanApplyIn,
    ReplanChangeIn,
    ReplanProposalOut,
)

router = make_router(tags=["replan"])
# The module this router was published from: its OpenAPI operation ids stay (docs/adr/0030).
OPERATION_ID_MODULE = "project.timetabling.replan_api"

ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut}


def _named(body: ReplanChangeIn) -> dict:
    """The change's and scope's fields ``body`` names, as JSON (``{"holidayId": "…"}``)."""
    fields = set(ReplanChangeIn.model_fields)
    return body.model_dump(include=fields, by_alias=True, mode="json", exclude_none=True)


def _change(request: AuthedRequest, body: ChangeFields) -> replan.Change:
    """The change ``body`` names, of the caller's organization (400/404 as ``replan.replan_change``, whose
    keyword arguments are the fields of :class:`ChangeFields`)."""
    return replan.replan_change(request.auth.org, **body.model_dump(include=set(ChangeFields.model_fields)))


@router.post("/replan/propose", response={200: ReplanProposalOut, **ERRORS})
def replan_propose(request: AuthedRequest, payload: ReplanChangeIn) -> HttpResponse:
    """POST /api/replan/propose: a proposal fixing every session the change hits (closures: moved to the
    earliest free slot; leave: another teacher), the sessions it cannot fix with reasons, and the
    figures; ``version`` for the apply (ADR 0015; ``replan.services.replan_propose``). Writes nothing. Errors as
    ``GET /api/replan/impact``."""
    change = _change(request, payload)
    return json_response(
        replan.replan_propose(
            request.auth,
            change,
            block_group_ids=payload.block_group_ids,
            session_ids=payload.session_ids,
        )
    )


@router.post("/replan/apply", response={200: ReplanAppliedOut, **ERRORS, 409: dict, 412: ErrorOut})
def replan_apply(request: AuthedRequest, payload: ReplanApplyIn) -> HttpResponse:
    """POST /api/replan/apply ``{proposalId, version, option?}``: writes that option of the stored proposal
    exactly, all-or-nothing, with one change event (one activity, undone as one step; ADR 0015).
    404 for another organization's proposal, change or scope ids; 400 when ``changes`` or the change's
    fields are given and differ from the proposal's; 412 when the timetable changed since the proposal;
    409 ``conflict`` naming the sessions when the final state would hold a hard conflict. Nothing is
    written on an error."""
    named = _named(payload)
    if set(named) & {ChangeFields.model_fields[k].alias or k for k in ChangeFields.model_fields}:
        _change(request, payload)  # another organization's ids: 404
    if payload.proposal_id is None:
        raise ValidationFailed.field("proposalId", "Make a proposal first: proposalId is required")
    return json_response(
        replan.replan_apply(
            request.auth,
            payload.proposal_id,
            version=payload.version,
            option=payload.option,
            changes=None if payload.changes is None else [c.model_dump() for c in payload.changes],
            request=named,
        )
    )


@router.get("/replan/impact", response={200: ImpactOut, **ERRORS})
def replan_impact(request: AuthedRequest, filters: Query[ImpactQuery]) -> HttpResponse:
    """GET /api/replan/impact: the sessions a change hits (not cancelled), by block group and by teacher,
    with ``actualHours`` summed (ADR 0015; ``project.timetabling.replan.services``). 400 "Start date is required",
    "End date is required", "End date must be on or after start date", "The range can be at most 400
    days", part-day times; 404 "Holiday not found" / "Leave not found" / "Teacher not found" / "Campus not
    found". Reads only."""
    return json_response(replan.replan_impact(request.auth.org, _change(request, filters)))
