"""Teachers and teacher units (docs/behaviour/teachers.md; docs/behaviour/errors.md §1; docs/behaviour/concurrency.md §2).

Thin: parse, call one selector or service, answer. The delivery summary, workload summary and
allocation grid live in the reporting app.
"""

from __future__ import annotations

import uuid

from django.http import HttpResponse
from ninja import Query

from project.core.auth import AuthedRequest
from project.core.concurrency import if_match_header, with_etag
from project.core.response_cache import cached_json
from project.core.routers import make_router
from project.core.schemas import ErrorOut
from project.staff import selectors, services
from project.staff.models import Teacher, TeacherUnit
from project.staff.schemas import TeacherIn, TeacherOut, TeacherUnitIn, TeacherUnitOut, TeacherUpdateIn

router = make_router(tags=["staff"])

ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut, 412: ErrorOut}


@router.get("/teachers", response=list[TeacherOut])
def list_teachers(request: AuthedRequest, show_inactive: bool = Query(False, alias="showInactive")) -> HttpResponse:
    """GET /api/teachers[?showInactive=true]: active teachers (all with showInactive), sorted by first
    then last name. Each carries ``unitCount``."""
    # Rows dumped without per-field validation (ADR 0013); the declared TeacherOut stays the contract.
    return cached_json(
        request,
        "teachers",
        {"showInactive": show_inactive},
        lambda: selectors.teacher_list_rows(org=request.auth.org, show_inactive=show_inactive),
    )


@router.post("/teachers", response={201: TeacherOut, **ERRORS})
def create_teacher(request: AuthedRequest, response: HttpResponse, payload: TeacherIn) -> tuple[int, Teacher]:
    """POST /api/teachers: 201 with the teacher; 400 validation (docs/behaviour/teachers.md §1); 409 duplicate_code on
    employeeId or email."""
    teacher = services.teacher_create(ctx=request.auth, data=payload.model_dump())
    return 201, with_etag(response, selectors.teacher_get(org=request.auth.org, teacher_id=teacher.pk))


@router.get("/teachers/{uuid:teacher_id}", response={200: TeacherOut, **ERRORS})
def get_teacher(request: AuthedRequest, response: HttpResponse, teacher_id: uuid.UUID) -> Teacher:
    """GET /api/teachers/{id}: the teacher, with ``ETag`` (its updatedAt); 404 "Teacher not found"."""
    return with_etag(response, selectors.teacher_get(org=request.auth.org, teacher_id=teacher_id))


@router.put("/teachers/{uuid:teacher_id}", response={200: TeacherOut, **ERRORS})
def update_teacher(request: AuthedRequest, response: HttpResponse, teacher_id: uuid.UUID, payload: TeacherUpdateIn) -> Teacher:
    """PUT /api/teachers/{id}: the full form or any subset (``{"isActive": false}`` deactivates); only the
    fields sent change. ``If-Match`` stale: 412 and nothing changes."""
    teacher = services.teacher_update(
        ctx=request.auth,
        teacher_id=teacher_id,
        data=payload.model_dump(exclude_unset=True),
        if_match=if_match_header(request),
    )
    return with_etag(response, selectors.teacher_get(org=request.auth.org, teacher_id=teacher.pk))


@router.delete("/teachers/{uuid:teacher_id}", response={204: None, **ERRORS})
def delete_teacher(request: AuthedRequest, teacher_id: uuid.UUID) -> tuple[int, None]:
    """DELETE /api/teachers/{id}: 204. The teacher's sessions stay, unassigned."""
    services.teacher_delete(ctx=request.auth, teacher_id=teacher_id)
    return 204, None


@router.get("/teacher-units/{uuid:teacher_id}", response={200: list[TeacherUnitOut], **ERRORS})
def list_teacher_units(request: AuthedRequest, teacher_id: uuid.UUID) -> list[TeacherUnit]:
    """GET /api/teacher-units/{teacherId}: the teacher's qualifications, each with its unit
    ``{id, code, name, nominalHours}``, by unit code."""
    return selectors.teacher_unit_list(org=request.auth.org, teacher_id=teacher_id)


@router.post("/teacher-units", response={201: TeacherUnitOut, **ERRORS})
def add_teacher_unit(request: AuthedRequest, payload: TeacherUnitIn) -> tuple[int, TeacherUnit]:
    """POST /api/teacher-units ``{teacherId, unitId, proficiencyLevel?}``: 201; 400 "Please select a unit";
    409 when the teacher already holds the unit."""
    return 201, services.teacher_unit_add(
        ctx=request.auth,
        teacher_id=payload.teacher_id,
        unit_id=payload.unit_id,
        proficiency_level=payload.proficiency_level,
    )


@router.delete("/teacher-units/{uuid:teacher_id}/{uuid:unit_id}", response={204: None, **ERRORS})
def remove_teacher_unit(request: AuthedRequest, teacher_id: uuid.UUID, unit_id: uuid.UUID) -> tuple[int, None]:
    """DELETE /api/teacher-units/{teacherId}/{unitId}: 204; 404 when not held."""
    services.teacher_unit_remove(ctx=request.auth, teacher_id=teacher_id, unit_id=unit_id)
    return 204, None
