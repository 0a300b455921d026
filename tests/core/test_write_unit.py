"""The write unit and the typed change event (docs/adr/0028), tested from the code itself.

Like Zulip's ``test_events``: the closed sets of :class:`project.core.changes.ChangeEvent` are walked, not
listed again here. Every entity and action is written by some module of ``project`` (found in its source);
no module writes around the unit; the published OpenAPI component is the model; every change event a
test captures validates against the model (``tests/conftest.py``, ``captured_events``). That every entity
has an entry in the SPA's map of what it refreshes is checked by ``tsc`` (``Record<Entity, ...>`` in
``spa/src/lib/queryKeys.ts``).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import get_args

import pytest
from django.db import transaction

from project.core.changes import ACTIONS, ENTITIES, Action, ChangeEvent, Entity, HiddenChangeEvent, org_change
from project.core.tenancy import Ctx
from project.history.models import Activity, ActivityChange
from tests import factories as f
from tests.checks import org_events

PROJECT = Path(__file__).resolve().parents[2] / "project"
UNIT = PROJECT / "core" / "changes.py"


def _modules() -> list[tuple[Path, ast.Module]]:
    return [(p, ast.parse(p.read_text(), filename=str(p))) for p in sorted(PROJECT.rglob("*.py")) if "migrations" not in p.parts]


def _constants(modules: list[tuple[Path, ast.Module]]) -> dict[str, object]:
    """Module-level ``NAME = "text"`` (or ``NAME: T = "text"``) of every module (``ENTITY`` of the session services)."""
    found: dict[str, object] = {}
    for _path, tree in modules:
        for node in tree.body:
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target if isinstance(node, ast.AnnAssign) else None
            if isinstance(target, ast.Name) and isinstance(getattr(node, "value", None), ast.Constant):
                found[target.id] = node.value.value  # type: ignore[union-attr]
    return found


def _texts(node: ast.AST, constants: dict[str, object]) -> set[str]:
    """The text constants an expression can take (``"deleted" if dissolve else "updated"``, ``ENTITY``)."""
    out = set()
    for part in ast.walk(node):
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            out.add(part.value)
        elif isinstance(part, ast.Name) and isinstance(constants.get(part.id), str):
            out.add(str(constants[part.id]))
    return out


def _written() -> tuple[set[str], set[str]]:
    """Entities and actions the project's source writes: the ``org_change`` calls' own arguments, the
    arguments of a helper that opens it (``*_change``), the ``entity=`` / ``action=`` keywords passed down
    to one, and the admin classes' ``entity`` (``project.core.admin.TenantAdmin``)."""
    modules = _modules()
    constants = _constants(modules)
    entities: set[str] = set()
    actions: set[str] = set()
    for _path, tree in modules:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
                if name == "org_change":
                    if len(node.args) > 1:
                        entities |= _texts(node.args[1], constants)
                    if len(node.args) > 2:
                        actions |= _texts(node.args[2], constants)
                elif name and name.endswith("_change"):  # a helper that opens the unit (``_sso_change``)
                    for arg in node.args:
                        found = _texts(arg, constants)
                        entities |= found
                        actions |= found
                for keyword in node.keywords:
                    if keyword.arg == "entity":
                        entities |= _texts(keyword.value, constants)
                    elif keyword.arg == "action":
                        actions |= _texts(keyword.value, constants)
            elif isinstance(node, ast.ClassDef) and node.name.endswith("Admin"):
                for item in node.body:
                    if isinstance(item, ast.Assign) and getattr(item.targets[0], "id", None) == "entity":
                        entities |= _texts(item.value, constants)
    return entities & ENTITIES, actions & ACTIONS


# What no write of the project announces, each with the reason (empty today: every entity and action is written).
NOT_WRITTEN: dict[str, str] = {}


def test_every_entity_and_action_of_the_closed_sets_is_written_somewhere():
    entities, actions = _written()
    assert set(get_args(Entity)) == ENTITIES and set(get_args(Action)) == ACTIONS
    assert ENTITIES - entities - set(NOT_WRITTEN) == set(), "an entity no write announces: remove it or say why in NOT_WRITTEN"
    assert ACTIONS - actions - set(NOT_WRITTEN) == set(), "an action no write announces: remove it or say why in NOT_WRITTEN"


def test_no_module_of_the_project_writes_around_the_unit():
    """Only ``project.core.changes`` raises the seq, records an activity or sends a change event itself."""
    offenders = []
    for path, tree in _modules():
        if path == UNIT:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
                if name in {"emit_change", "_begin", "record", "send_change", "use_transport"} and not (
                    path.name == "apps.py" and name == "use_transport"
                ):
                    offenders.append(f"{path.relative_to(PROJECT.parent)}:{node.lineno} {name}()")
            if isinstance(node, ast.keyword) and node.arg == "event_seq":
                offenders.append(f"{path.relative_to(PROJECT.parent)}:{node.value.lineno} event_seq=")
    assert offenders == []


def test_the_published_schema_is_the_model():
    from project.api import api

    components = api.get_openapi_schema()["components"]["schemas"]
    event = components["ChangeEvent"]
    assert set(event["properties"]["entity"]["enum"]) == ENTITIES
    assert set(event["properties"]["action"]["enum"]) == ACTIONS
    assert set(event["required"]) == {"entity", "action", "ids", "seq", "actorId", "origin", "at"}
    assert {"sessions", "before"} <= set(event["properties"])
    assert components["HiddenChangeEvent"]["required"] == ["seq", "hidden"]
    assert set(components["ChangeEventSession"]["required"]) == {
        "id",
        "blockGroupId",
        "teacherId",
        "room",
        "roomId",
        "date",
        "unitId",
        "hours",
        "status",
    }


@pytest.mark.django_db(transaction=True)
def test_the_unit_orders_seq_history_body_and_send(captured_events):
    org = f.make_org()
    course = f.make_course(org)
    start = type(org).objects.get(pk=org.pk).event_seq
    with org_change(Ctx(org=org, origin="tab"), "course", "updated", ids=[course.pk]) as change:
        assert Activity.objects.for_org(org).filter(pk=change.activity.pk).exists()  # recorded before the body
        assert captured_events == []  # sent only after commit
        course.name = "Renamed"
        course.save()
    assert change.seq == start + 1
    assert ActivityChange.objects.filter(activity=change.activity).exists()  # the body's row was captured
    (sent,) = [m["event"] for _g, m in captured_events]
    assert ChangeEvent.model_validate({k: v for k, v in sent.items() if k != "campusIds"}).seq == change.seq
    assert (sent["entity"], sent["action"], sent["ids"], sent["origin"]) == ("course", "updated", [str(course.pk)], "tab")


@pytest.mark.django_db(transaction=True)
def test_a_body_that_raises_leaves_no_seq_no_activity_and_sends_nothing(captured_events):
    org = f.make_org()
    course = f.make_course(org)
    start = type(org).objects.get(pk=org.pk).event_seq
    with pytest.raises(RuntimeError), org_change(Ctx(org=org), "course", "deleted", ids=[course.pk]):
        course.delete()
        raise RuntimeError("the write fails after its first row")
    assert type(org).objects.get(pk=org.pk).event_seq == start
    assert not Activity.objects.for_org(org).exists()
    assert captured_events == []
    assert type(course).objects.filter(pk=course.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_ids_named_in_the_body_reach_the_activity_and_the_event(captured_events):
    org = f.make_org()
    with org_change(Ctx(org=org), "course", "created") as change:
        course = f.make_course(org)
        change.ids = [course.pk]
    activity = Activity.objects.for_org(org).get(pk=change.activity.pk)
    assert activity.ids == [str(course.pk)]
    assert "created a course" in activity.summary
    assert [m["event"]["ids"] for _g, m in captured_events] == [[str(course.pk)]]


@pytest.mark.django_db(transaction=True)
def test_units_inside_one_transaction_send_in_seq_order_after_it_commits(captured_events):
    org = f.make_org()
    with transaction.atomic():
        with org_change(Ctx(org=org), "course", "created", ids=["a"]):
            pass
        with org_change(Ctx(org=org), "unit", "created", ids=["b"]):
            pass
        assert captured_events == []
    seqs = [m["event"]["seq"] for _g, m in captured_events]
    assert [m["event"]["entity"] for _g, m in captured_events] == ["course", "unit"]
    assert seqs[1] == seqs[0] + 1


@pytest.mark.django_db
def test_unknown_entity_or_action_is_refused_before_anything_is_written():
    org = f.make_org()
    start = type(org).objects.get(pk=org.pk).event_seq
    for entity, action in (("spaceship", "created"), ("course", "exploded")):
        with pytest.raises(ValueError), org_change(Ctx(org=org), entity, action):  # type: ignore[arg-type]
            pytest.fail("the body must not run")
    assert type(org).objects.get(pk=org.pk).event_seq == start


@pytest.mark.django_db
def test_a_session_write_through_the_api_sends_an_event_of_the_model(
    api, org, captured_events, django_capture_on_commit_callbacks
):
    group, unit = f.make_block_group(org), f.make_unit(org)
    s = f.make_session(org, block_group=group, unit=unit, room="A-101")
    current = api.get(f"/api/timetables/{s.id}").json()
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.put(f"/api/timetables/{s.id}", {**current, "room": "B-204"}, headers={"If-Match": current["updatedAt"]})
    assert answer.status_code == 200, answer.content
    (sent,) = org_events(captured_events, org)
    event = ChangeEvent.model_validate({k: v for k, v in sent.items() if k != "campusIds"})
    assert (event.entity, event.action, event.ids) == ("timetable_session", "updated", [str(s.id)])
    assert event.sessions is not None and [d.room for d in event.sessions] == ["B-204"]
    assert event.before is not None and [d.room for d in event.before] == ["A-101"]


def test_what_a_member_gets_of_an_admin_only_change_is_the_hidden_model():
    from realtime.authentication import Principal
    from realtime.scoping import event_for

    event = ChangeEvent(
        entity="display_link", action="created", ids=["d"], seq=3, actor_id=None, origin=None, at="2026-03-02T09:00:00+11:00"
    )
    member = Principal(org_id="o", user_id="u", role="user")
    assert HiddenChangeEvent.model_validate(event_for(member, event.wire())) == HiddenChangeEvent(seq=3, hidden=True)
    with pytest.raises(ValueError):
        ChangeEvent.model_validate({"seq": 3, "hidden": True})


# ------------------------------------------------------------- what the apps register with the unit


def test_the_apps_register_their_steps_of_the_unit_when_ready():
    """``project.core`` imports no app (``.importlinter``): the history's recorder and row capture, and the
    routing of session and block group events, reach the unit through the apps' ``ready()``."""
    from project.core import changes, models
    from project.history import recording, tracking
    from project.planning.routing import block_group_routing
    from project.timetabling.routing import session_routing, sessions_before

    assert changes._recorder is recording
    assert models._capture is tracking
    assert changes._routings["timetable_session"] == (session_routing, sessions_before)
    assert changes._routings["block_group"] == (block_group_routing, None)


@pytest.mark.django_db
def test_a_write_without_a_registered_recorder_fails_loudly_before_writing(monkeypatch, captured_events):
    """No recorder (the history app missing from INSTALLED_APPS, or a write before the registry is ready):
    the unit refuses to write rather than write without History."""
    from django.core.exceptions import ImproperlyConfigured

    from project.core import changes

    org = f.make_org()
    course = f.make_course(org)
    start = type(org).objects.get(pk=org.pk).event_seq
    monkeypatch.setattr(changes, "_recorder", None)
    with (
        pytest.raises(ImproperlyConfigured, match="no history recorder"),
        org_change(Ctx(org=org), "course", "deleted", ids=[course.pk]),
    ):
        pytest.fail("the body must not run")
    with transaction.atomic(), pytest.raises(ImproperlyConfigured):
        changes.emit_change(Ctx(org=org), entity="course", action="updated", ids=[course.pk])
    assert type(org).objects.get(pk=org.pk).event_seq == start
    assert not Activity.objects.for_org(org).exists()
    assert type(course).objects.filter(pk=course.pk).exists()


@pytest.mark.django_db
def test_without_a_row_capture_writes_are_djangos_own(monkeypatch):
    """The capture is the history's: unregistered, a tracked model's writes still happen (and none is captured)."""
    from project.core import models

    org = f.make_org()
    course = f.make_course(org)
    monkeypatch.setattr(models, "_capture", None)
    course.name = "Renamed"
    course.save()
    type(course).objects.for_org(org).filter(pk=course.pk).update(code="X1")
    assert type(course).objects.get(pk=course.pk).code == "X1"
    assert type(course).objects.get(pk=course.pk).name == "Renamed"
