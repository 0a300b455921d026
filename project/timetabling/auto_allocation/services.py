"""Proposing and applying an auto-allocation (POST /api/allocation/propose and /apply)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from project.core.changes import org_change
from project.core.errors import BadRequest, StaleWrite
from project.core.tenancy import Ctx
from project.timetabling import conflicts as cf
from project.timetabling.auto_allocation.figures import (
    _describe,
)
from project.timetabling.auto_allocation.loading import (
    _version,
    load_problem,
)
from project.timetabling.auto_allocation.model import (
    DEFAULT_TIME_LIMIT,
    Problem,
    Scope,
)
from project.timetabling.auto_allocation.solving import (
    Solution,
    solve,
)
from project.timetabling.models import TimetableSession

# -------------------------------------------------------------------------------------------- entry


def auto_allocation_propose(ctx: Ctx, scope: Scope, *, time_limit: float = DEFAULT_TIME_LIMIT) -> dict:
    """A proposal for the scope; nothing is written. See the module docstring for the answer's fields."""
    problem = load_problem(ctx, scope)
    version = _version(ctx, problem.lo, problem.hi, [s.id for s in problem.targets])
    return _describe(problem, solve(problem, time_limit), version, applied=False)


def auto_allocation_apply(
    ctx: Ctx, scope: Scope, *, version: str | None, assignments: list[tuple] | None, time_limit: float = DEFAULT_TIME_LIMIT
) -> dict:
    """Write a proposal all-or-nothing with one change event (entity timetable_session, action allocated).

    With ``assignments`` [(session id, teacher id)] and ``version`` from an earlier proposal: refused
    with StaleWrite (412) when anything it depended on changed, and with BadRequest when an assignment
    is not one a proposal could make. Without ``assignments``: solves and writes in one go.
    """
    with transaction.atomic():
        problem = load_problem(ctx, scope)
        current = _version(ctx, problem.lo, problem.hi, [s.id for s in problem.targets])
        if assignments is not None:
            if not version or version != current:
                raise StaleWrite("The timetable changed since this proposal was made. Make a new proposal and try again.")
            chosen = {}
            for sid, tid in assignments:
                if tid not in problem.eligible.get(sid, []):
                    raise BadRequest("An assignment in the proposal is no longer possible. Make a new proposal.")
                chosen[sid] = tid
            solution = Solution(chosen, "APPLIED", 0.0)
            if not _respects_capacity_and_overlap(problem, chosen):
                raise BadRequest("The proposal breaks a capacity or overlap rule. Make a new proposal.")
        else:
            solution = solve(problem, time_limit)
        if solution.assignment:
            locked = {
                s.id: s
                for s in TimetableSession.objects.for_org(ctx.org).select_for_update().filter(id__in=list(solution.assignment))
            }
            # The unit records first: the rows its body writes are captured into its activity.
            with org_change(ctx, "timetable_session", "allocated", ids=list(solution.assignment)):
                rows = []
                now = timezone.now()
                for sid, tid in solution.assignment.items():
                    row = locked[sid]
                    if row.teacher_id is not None:
                        raise StaleWrite("The timetable changed since this proposal was made. Make a new proposal and try again.")
                    row.teacher_id = tid
                    row.updated_at = now
                    rows.append(row)
                TimetableSession.objects.for_org(ctx.org).bulk_update(rows, ["teacher", "updated_at"])
        new_version = _version(ctx, problem.lo, problem.hi, [s.id for s in problem.targets])
        return _describe(problem, solution, new_version, applied=True)


def _respects_capacity_and_overlap(problem: Problem, chosen: dict) -> bool:
    slots = []
    for s in problem.targets:
        t = chosen.get(s.id)
        if t is not None:
            slots.append(s.with_ids(s.id, s.block_group_id, s.unit_id, t))
    found = cf.detect(problem.others + slots, problem.data, focus={s.id for s in slots})
    bad = {cf.TEACHER_DOUBLE_BOOKED, cf.TEACHER_OVER_CAPACITY}
    return not any(c.type in bad for c in found)
