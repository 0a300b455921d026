"""The figures and the answer shape of an auto-allocation proposal."""

from __future__ import annotations

from collections import defaultdict

from project.timetabling import conflicts as cf
from project.timetabling.auto_allocation.model import (
    Problem,
)
from project.timetabling.auto_allocation.solving import (
    Solution,
)
from project.timetabling.calendar import week_start

# ------------------------------------------------------------------------------------------ figures


def figures(problem: Problem, assignment: dict) -> dict:
    """Continuity %, highest and mean weekly utilisation % over the scope, for an assignment.

    continuityPercent: of the (block group, unit) pairs of the targets that have any allocated
    session in the scope's weeks, the share taught by exactly one teacher. Utilisation: hours / max
    weekly hours x 100 of each active teacher in each week of the scope that holds a target session;
    highest is the maximum, mean the average over those teacher-weeks. preferenceScore: the sum of the
    teachers' preference weights over the allocated targets (UniTime's scale: lower is better, 0 is
    neutral; ADR 0027).
    """
    data = problem.data
    keys = {(s.block_group_id, s.unit_id) for s in problem.targets}
    teachers_of: dict = defaultdict(set)
    hours: dict = defaultdict(float)
    for s in problem.others:
        if s.status == cf.CANCELLED or s.teacher_id is None:
            continue
        hours[(s.teacher_id, week_start(s.date))] += s.hours
        if (s.block_group_id, s.unit_id) in keys:
            teachers_of[(s.block_group_id, s.unit_id)].add(s.teacher_id)
    for s in problem.targets:
        t = assignment.get(s.id)
        if t is None:
            continue
        hours[(t, week_start(s.date))] += s.hours
        teachers_of[(s.block_group_id, s.unit_id)].add(t)
    served = [k for k in keys if teachers_of.get(k)]
    continuity = round(100.0 * sum(1 for k in served if len(teachers_of[k]) == 1) / len(served), 1) if served else 0.0
    weeks = {week_start(s.date) for s in problem.targets}
    utils = []
    for t in data.teachers.values():
        if not t.is_active or t.max_weekly_hours <= 0:
            continue
        for monday in weeks:
            utils.append(100.0 * hours.get((t.id, monday), 0.0) / t.max_weekly_hours)
    preference_score = sum(
        problem.preference.get((s.id, assignment[s.id]), (0, ""))[0] for s in problem.targets if s.id in assignment
    )
    return {
        "continuityPercent": continuity,
        "highestUtilisation": round(max(utils), 1) if utils else 0.0,
        "meanUtilisation": round(sum(utils) / len(utils), 1) if utils else 0.0,
        "preferenceScore": float(preference_score),
    }


def _describe(problem: Problem, solution: Solution, version: str, applied: bool) -> dict:
    data = problem.data
    assignments = []
    per_teacher: dict = defaultdict(lambda: {"sessions": 0, "hours": 0.0})
    for s in sorted(problem.targets, key=lambda s: (s.date, s.start, s.group_code)):
        t = solution.assignment.get(s.id)
        if t is None:
            continue
        facts = data.teachers[t]
        assignments.append(
            {
                "sessionId": str(s.id),
                "teacherId": str(t),
                "teacherName": facts.name,
                "date": s.date.isoformat(),
                "startTime": s.start.strftime("%H:%M:%S"),
                "endTime": s.end.strftime("%H:%M:%S"),
                "unitCode": s.unit_code,
                "blockGroupCode": s.group_code,
                "hours": s.hours,
            }
        )
        per_teacher[t]["sessions"] += 1
        per_teacher[t]["hours"] += s.hours
    unassignable = []
    for s in sorted(problem.targets, key=lambda s: (s.date, s.start, s.group_code)):
        if s.id in solution.assignment:
            continue
        reason = problem.reasons.get(s.id) or (
            f"Every teacher qualified for {s.unit_code} is needed elsewhere or would exceed their maximum weekly hours"
        )
        unassignable.append(
            {
                "sessionId": str(s.id),
                "date": s.date.isoformat(),
                "startTime": s.start.strftime("%H:%M:%S"),
                "endTime": s.end.strftime("%H:%M:%S"),
                "unitCode": s.unit_code,
                "blockGroupCode": s.group_code,
                "reason": reason,
            }
        )
    return {
        "applied": applied,
        "version": version,
        "status": solution.status,
        "solveMs": round(solution.solve_ms, 1),
        "sessionsInScope": len(problem.targets),
        "assignments": assignments,
        "unassignable": unassignable,
        "perTeacher": sorted(
            (
                {
                    "teacherId": str(t),
                    "teacherName": data.teachers[t].name,
                    "sessions": v["sessions"],
                    "hours": round(v["hours"], 2),
                }
                for t, v in per_teacher.items()
            ),
            key=lambda r: (-r["hours"], r["teacherName"]),
        ),
        "before": figures(problem, {}),
        "after": figures(problem, solution.assignment),
    }
