"""Rooms become records. Each organization gets a Room for every distinct room text of its
sessions (texts that differ only in case and spacing are one room), on the campus most of its sessions'
block groups belong to, spelled as most sessions spell it; the sessions are linked to it and their text
becomes the room's code. Capacity and type are left for an administrator to fill in (type classroom)."""

from collections import Counter, defaultdict

from django.db import migrations


def key_of(text):
    return "".join(ch for ch in (text or "").casefold() if not ch.isspace() and ch not in "-_")


def link_rooms(apps, schema_editor) -> None:
    Session = apps.get_model("timetabling", "TimetableSession")
    Room = apps.get_model("catalogue", "Room")
    rows = Session.objects.exclude(room="").values_list("id", "organization_id", "room", "block_group__campus_id")
    spellings = defaultdict(Counter)
    campuses = defaultdict(Counter)
    ids = defaultdict(list)
    for sid, org_id, text, campus_id in rows.iterator(chunk_size=5000):
        k = key_of(text)
        if not k:
            continue
        spellings[(org_id, k)][text.strip()] += 1
        if campus_id is not None:
            campuses[(org_id, k)][campus_id] += 1
        ids[(org_id, k)].append(sid)
    for (org_id, k), names in spellings.items():
        code = names.most_common(1)[0][0][:50]
        campus = campuses[(org_id, k)].most_common(1)[0][0] if campuses[(org_id, k)] else None
        room = Room.objects.create(organization_id=org_id, code=code, key=k, name=code, campus_id=campus)
        session_ids = ids[(org_id, k)]
        for i in range(0, len(session_ids), 2000):
            Session.objects.filter(pk__in=session_ids[i : i + 2000]).update(room_record=room, room=code)


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0002_room"),
        ("timetabling", "0004_timetablesession_room_record"),
    ]

    operations = [migrations.RunPython(link_rooms, migrations.RunPython.noop)]
