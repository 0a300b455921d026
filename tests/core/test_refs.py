"""The tenant-scoped reference of input schemas (ADR 0001): an id resolves inside the caller's organization
or answers 404 "<Thing> not found"; a list is one query, all or nothing."""

from types import SimpleNamespace
from typing import Annotated
from uuid import UUID, uuid4

import pytest

from project.core.errors import NotFound
from project.core.refs import OrgRef, OrgRefs, OrgRefsAt, confirm_filter_refs
from project.core.schemas import CamelSchema
from project.core.tenancy import Ctx, get_in_org
from project.staff.models import Teacher
from tests import factories as f


class _In(CamelSchema):
    teacher_id: Annotated[UUID | None, OrgRef(Teacher, "Teacher")] = None
    teacher_ids: Annotated[list[UUID] | None, OrgRefs(Teacher, "Teacher")] = None


def _validate(org, body):
    """Validate as Ninja does: ``context={"request": request}`` with the request's Ctx as ``auth``."""
    return _In.model_validate(body, context={"request": SimpleNamespace(auth=Ctx(org=org))})


def test_own_id_resolves_and_carries_its_row(db, django_assert_num_queries):
    a = f.make_org()
    mine = f.make_teacher(a)
    with django_assert_num_queries(1):
        data = _validate(a, {"teacherId": str(mine.pk)})
    assert type(data.teacher_id) is UUID and data.teacher_id == mine.pk
    with django_assert_num_queries(1):  # an equal UUID that is not the validated object carries nothing
        assert get_in_org(Teacher, a, UUID(str(mine.pk)), "Teacher") == mine
    with django_assert_num_queries(0):  # the service's scoped lookup reuses the row
        assert get_in_org(Teacher, a, data.teacher_id, "Teacher") == mine
    # Another organization's lookup of the same value still queries, and finds nothing.
    with pytest.raises(NotFound):
        get_in_org(Teacher, f.make_org(), data.teacher_id, "Teacher")


@pytest.mark.parametrize("foreign", ["other", "unknown"])
def test_foreign_or_unknown_id_is_not_found(db, foreign):
    a, b = f.make_org(), f.make_org()
    key = f.make_teacher(b).pk if foreign == "other" else uuid4()
    with pytest.raises(NotFound) as err:
        _validate(a, {"teacherId": str(key)})
    assert (err.value.status, err.value.message) == (404, "Teacher not found")


def test_list_is_one_query_and_all_or_nothing(db, django_assert_num_queries):
    a, b = f.make_org(), f.make_org()
    mine = [f.make_teacher(a, employee_id=f"E{i}") for i in range(5)]
    ids = [str(t.pk) for t in mine]
    with django_assert_num_queries(1):
        data = _validate(a, {"teacherIds": [*ids, ids[0]]})
    assert data.teacher_ids == [t.pk for t in mine] + [mine[0].pk]
    theirs = f.make_teacher(b)
    with django_assert_num_queries(1), pytest.raises(NotFound) as err:
        _validate(a, {"teacherIds": [*ids, str(theirs.pk)]})
    assert err.value.message == "Teacher not found"
    assert _validate(a, {"teacherIds": []}).teacher_ids == []


def test_empty_reference_and_no_request_pass_through(db):
    a = f.make_org()
    assert _validate(a, {}).teacher_id is None
    # Built in code without a request (a service's own use): parsed only, the service's lookup decides.
    key = uuid4()
    assert _In.model_validate({"teacherId": str(key)}).teacher_id == key


class _Item(CamelSchema):
    teacher_id: UUID


class _ListIn(CamelSchema):
    items: Annotated[list[_Item], OrgRefsAt(Teacher, "Teacher", "teacher_id")]


def test_ids_inside_a_list_of_objects_are_one_query(db, django_assert_num_queries):
    a, b = f.make_org(), f.make_org()
    mine = [f.make_teacher(a) for _ in range(3)]
    context = {"request": SimpleNamespace(auth=Ctx(org=a))}
    with django_assert_num_queries(1):
        data = _ListIn.model_validate({"items": [{"teacherId": str(t.pk)} for t in mine]}, context=context)
    assert [i.teacher_id for i in data.items] == [t.pk for t in mine]
    with pytest.raises(NotFound) as err:
        _ListIn.model_validate(
            {"items": [{"teacherId": str(mine[0].pk)}, {"teacherId": str(f.make_teacher(b).pk)}]}, context=context
        )
    assert err.value.message == "Teacher not found"


def test_filter_ids_are_checked_only_for_an_empty_answer(db, django_assert_num_queries):
    a, b = f.make_org(), f.make_org()
    mine, theirs = f.make_teacher(a), f.make_teacher(b)
    with django_assert_num_queries(0):  # rows matched: the id is proven the organization's
        confirm_filter_refs(True, a, [(Teacher, mine.pk, "Teacher")])
    with django_assert_num_queries(1):
        confirm_filter_refs(False, a, [(Teacher, mine.pk, "Teacher"), (Teacher, None, "Teacher")])
    with pytest.raises(NotFound) as err:
        confirm_filter_refs(False, a, [(Teacher, theirs.pk, "Teacher")])
    assert err.value.message == "Teacher not found"
