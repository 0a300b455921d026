"""Benchmark: the hot list reads against a raw-SQL floor, and 32 signed-in clients on one daphne process.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bp_bench_reads .venv/bin/python bench/reads_bench.py
    DATABASE_URL=... .venv/bin/python bench/reads_bench.py --clients 32 --seconds 20

PostgreSQL only (the floor is psycopg SQL); without ``DATABASE_URL`` it uses
``postgres://postgres@127.0.0.1:5432/bp_bench_reads`` and creates that database when missing. The first
run seeds the large organization "Reads Bench" with ``bench/seed_large.py`` (30,000 sessions over 79
block groups sharing 41 rooms, 150 teachers, plus one block group of 5,000 sessions); later runs reuse
it (``--reseed`` drops and rebuilds it).

It starts ONE real daphne process (``project.asgi:application``, the run command's app) on a free port,
signs clients in with real session rows, and measures over HTTP as a browser asks (keep-alive,
``Accept-Encoding: gzip``, body read):

- the four reads of the large-provider performance work (ADR 0013): ``GET /api/timetables?blockGroupId=`` of a ~400-session group and of the
  5,000-session group, ``GET /api/teachers``, ``GET /api/block-groups``: API p50 right after a change
  (the organization's event sequence raised before each run, so the answer is built, not taken from
  ``project/core/response_cache.py``) against the p50 of a psycopg query that builds the same JSON in
  PostgreSQL (conflict types included; equal JSON is checked before timing, rows compared by id);
  target: every read within 2x of its floor. The p50 of the unchanged answer is printed beside it;
- with ``--clients N``: N concurrent signed-in clients each doing the mix (the four reads, round robin,
  ``--mix`` to choose) for ``--seconds``; prints requests/s, p50, p99 overall and per read; target for
  32 clients: p99 < 300 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import stop_server  # noqa: E402

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/bp_bench_reads"
ORG_NAME = "Reads Bench"
BIG = 5000


def ensure_database(url: str) -> None:
    import psycopg

    parsed = urlparse(url)
    name = parsed.path.lstrip("/")
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def org_name(density: str = "random") -> str:
    """The benchmark organization's name for a seed density (``seed_large_org``'s ``density``)."""
    return ORG_NAME if density == "random" else f"{ORG_NAME} ({density} conflicts)"


def setup(reseed: bool, density: str = "random"):
    """Migrate the database of ``DATABASE_URL`` and return ``(url, org)``: the large organization of
    ``density`` ("random": the seed's random slots, most rows in conflict; "few": placed to avoid conflicts,
    see ``bench/seed_large.py``), seeded on first use (or again with ``reseed``)."""
    url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit("reads_bench needs PostgreSQL: set DATABASE_URL=postgres://user@host:5432/db")
    ensure_database(url)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from bench.seed_large import delete_org, seed_large_org
    from project.accounts.models import Organization

    name = org_name(density)
    org = Organization.objects.filter(name=name).first()
    if org is not None and reseed:
        delete_org(org)
        org = None
    if org is None:
        t0 = time.perf_counter()
        org = seed_large_org(name=name, sessions=30000 + BIG, big_group_sessions=BIG, density=density)
        print(f"seeded {name} in {time.perf_counter() - t0:.0f} s")
    from django.db import connection

    with connection.cursor() as cursor:  # planner statistics after a bulk load
        cursor.execute("ANALYZE")
    return url, org


def pick_reads(org) -> dict:
    from django.db.models import Count

    from project.planning.models import BlockGroup

    groups = list(BlockGroup.objects.for_org(org).annotate(n=Count("sessions")).order_by("code").values_list("id", "code", "n"))
    big = max(groups, key=lambda g: g[2])
    mid = min((g for g in groups if g[0] != big[0]), key=lambda g: (abs(g[2] - 400), g[1]))
    return {
        f"timetable {mid[2]} sessions": (f"/api/timetables?blockGroupId={mid[0]}", ("timetable", mid[0])),
        f"timetable {big[2]} sessions": (f"/api/timetables?blockGroupId={big[0]}", ("timetable", big[0])),
        "teachers": ("/api/teachers", ("teachers", None)),
        "block groups": ("/api/block-groups", ("block_groups", None)),
    }


def sessions_for(org, n: int) -> list[str]:
    """``n`` signed-in session keys of the organization's admin (rows as a password sign-in makes them)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from project.accounts.models import User

    user = User.objects.filter(organization=org, role="admin").first()
    keys = []
    for _ in range(n):
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "project.core.auth.SessionUserBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        keys.append(store.session_key)
    return keys


# ------------------------------------------------------------------------------------------- the floor


def _day_values() -> str:
    from project.planning import days

    return ", ".join(f"('{k}', {v})" for k, v in days._TOKENS.items())


def _word_pattern(word: str) -> str:
    """The availability pattern of a teacher without a profile whose form says ``word``, as a SQL JSON
    literal: the weekly windows are constants of the product (``word_windows``), not data to read."""
    import json

    from project.staff.availability.selectors import pattern_json

    return "'" + json.dumps(pattern_json(word, None)).replace("'", "''") + "'::json"


def _word_patterns() -> str:
    return ", ".join(f"('{w}', {_word_pattern(w)})" for w in ("day", "evening", "both"))


def floor_sql(kind: str) -> str:
    """One PostgreSQL statement returning the list's JSON text (%(org)s, %(bg)s). Each is the fastest
    form found, not the ORM's: the block groups' session counts are one grouped aggregate (a correlated
    count per group was 4-5x slower on the large organization)."""
    ts = "to_char({} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"+00:00\"')"
    if kind == "teachers":
        return f"""
SELECT coalesce(json_agg(json_build_object(
  'id', t.id, 'employeeId', t.employee_id, 'firstName', t.first_name, 'lastName', t.last_name, 'email', t.email,
  'phone', t.phone, 'jobTitle', t.job_title, 'employmentType', t.employment_type, 'expiryDate', t.expiry_date,
  'availability', t.availability, 'maxWeeklyHours', t.max_weekly_hours, 'isActive', t.is_active,
  'qualifications', t.qualifications, 'createdAt', {ts.format("t.created_at")}, 'updatedAt', {ts.format("t.updated_at")},
  'unitCount', (SELECT count(*) FROM staff_teacherunit tu WHERE tu.teacher_id = t.id),
  'availabilityPattern', CASE WHEN a.id IS NULL
    THEN coalesce((SELECT v.p FROM (VALUES {_word_patterns()}) v(w, p) WHERE v.w = t.availability), ({_word_pattern("day")}))
    ELSE json_build_object('custom', a.custom, 'windows', a.windows, 'preferences', a.preferences, 'variants', a.variants,
      'maxHoursPerDay', a.max_hours_per_day::float8, 'maxHoursPerWeek', a.max_hours_per_week::float8,
      'maxDaysPerWeek', a.max_days_per_week, 'campusIds', a.campus_ids, 'preferredCampusId', a.preferred_campus_id,
      'preferredCampusLevel', coalesce(nullif(a.preferred_campus_level, ''), 'preferred')) END
) ORDER BY lower(t.first_name), lower(t.last_name), t.employee_id, t.id), '[]')::text
FROM staff_teacher t LEFT JOIN staff_teacheravailability a ON a.teacher_id = t.id
WHERE t.organization_id = %(org)s AND t.is_active"""
    if kind == "block_groups":
        return f"""
SELECT coalesce(json_agg(json_build_object(
  'id', g.id, 'code', g.code, 'name', g.name, 'courseId', g.course_id, 'campusId', g.campus_id,
  'course', CASE WHEN c.id IS NULL THEN NULL ELSE json_build_object('id', c.id, 'code', c.code, 'name', c.name) END,
  'campus', CASE WHEN k.id IS NULL THEN NULL ELSE json_build_object('id', k.id, 'name', k.name, 'abbreviation', k.abbreviation) END,
  'deliveryMode', g.delivery_mode, 'studyMode', g.study_mode, 'cohortSize', g.cohort_size, 'startDate', g.start_date,
  'endDate', g.end_date,
  'preferredDays', ARRAY(SELECT DISTINCT d FROM (
      SELECT CASE WHEN tok ~ '^[0-9]+$' AND tok::int BETWEEN 0 AND 7 THEN (CASE WHEN tok::int = 0 THEN 7 ELSE tok::int END)
                  ELSE (SELECT v.n FROM (VALUES {_day_values()}) v(w, n) WHERE v.w = btrim(tok, '.')) END AS d
      FROM regexp_split_to_table(lower(btrim(g.preferred_days)), '[\\s,;/]+') tok WHERE tok <> '') x
      WHERE d IS NOT NULL ORDER BY d),
  'preferredDaysText', g.preferred_days, 'sessionDuration', g.session_duration::float8,
  'sessionsPerDay', g.sessions_per_day, 'status', g.status,
  'timetableCount', coalesce(n.n, 0),
  'studyPlanNames', ARRAY(SELECT p.name FROM planning_blockgroupstudyplan l JOIN planning_studyplan p ON p.id = l.study_plan_id
                          WHERE l.block_group_id = g.id ORDER BY l.created_at, l.id),
  'createdAt', {ts.format("g.created_at")}, 'updatedAt', {ts.format("g.updated_at")}, 'preferredRoomType', g.preferred_room_type
) ORDER BY g.code), '[]')::text
FROM planning_blockgroup g LEFT JOIN catalogue_course c ON c.id = g.course_id LEFT JOIN catalogue_campus k ON k.id = g.campus_id
LEFT JOIN (SELECT block_group_id, count(*) AS n FROM timetabling_timetablesession WHERE organization_id = %(org)s
           GROUP BY block_group_id) n ON n.block_group_id = g.id
WHERE g.organization_id = %(org)s"""
    # The timetable of one block group with its conflict types (docs/behaviour/conflicts.md §1) computed in SQL.
    # Covers what the seed makes: one-off holidays (recurring ones are not repeated here) and linked groups.
    overlap = "o.actual_date = m.actual_date AND o.id <> m.id AND o.status <> 'cancelled' AND o.start_time < m.end_time AND m.start_time < o.end_time"
    evening = "(m.start_time >= '17:00' OR m.end_time > '17:00')"
    return f"""
WITH lk AS (SELECT block_group_id, linked_group_id FROM planning_linkedblockgroupmember WHERE organization_id = %(org)s),
mine AS MATERIALIZED (
  SELECT s.id, s.block_group_id, s.unit_id, s.teacher_id, lower(s.room) AS room, s.actual_date, s.start_time, s.end_time,
         date_trunc('week', s.actual_date)::date AS wk, lk.linked_group_id AS link
  FROM timetabling_timetablesession s LEFT JOIN lk ON lk.block_group_id = s.block_group_id
  WHERE s.organization_id = %(org)s AND s.block_group_id = %(bg)s AND s.status <> 'cancelled'),
weeks AS (
  SELECT k.teacher_id, k.wk FROM (SELECT DISTINCT teacher_id, wk FROM mine WHERE teacher_id IS NOT NULL) k
  JOIN staff_teacher t ON t.id = k.teacher_id
  CROSS JOIN LATERAL (
    SELECT sum(h) AS total FROM (
      SELECT DISTINCT ON (CASE WHEN ol.linked_group_id IS NULL THEN o.id::text
                               ELSE concat(o.actual_date, o.start_time, o.end_time, ol.linked_group_id) END) o.actual_hours AS h
      FROM timetabling_timetablesession o LEFT JOIN lk ol ON ol.block_group_id = o.block_group_id
      WHERE o.teacher_id = k.teacher_id AND o.actual_date BETWEEN k.wk AND k.wk + 6 AND o.status <> 'cancelled') x) w
  WHERE w.total > t.max_weekly_hours),
hits AS (
  SELECT m.id, 'group_double_booked' AS t FROM mine m JOIN timetabling_timetablesession o
    ON o.organization_id = %(org)s AND o.block_group_id = m.block_group_id AND {overlap}
  UNION ALL
  SELECT m.id, 'teacher_double_booked' FROM mine m JOIN timetabling_timetablesession o
    ON o.teacher_id = m.teacher_id AND {overlap} AND o.block_group_id <> m.block_group_id
    LEFT JOIN lk ol ON ol.block_group_id = o.block_group_id
    WHERE m.link IS NULL OR ol.linked_group_id IS DISTINCT FROM m.link
  UNION ALL
  SELECT m.id, 'room_double_booked' FROM mine m JOIN timetabling_timetablesession o
    ON o.organization_id = %(org)s AND lower(o.room) = m.room AND {overlap} AND o.block_group_id <> m.block_group_id
    LEFT JOIN lk ol ON ol.block_group_id = o.block_group_id
    WHERE m.room <> '' AND (m.link IS NULL OR ol.linked_group_id IS DISTINCT FROM m.link)
  UNION ALL
  SELECT m.id, 'holiday' FROM mine m WHERE EXISTS (
    SELECT 1 FROM timetabling_holiday h WHERE h.organization_id = %(org)s AND h.is_active AND NOT h.is_recurring
      AND m.actual_date BETWEEN h.start_date AND h.end_date)
  UNION ALL
  SELECT m.id, 'teacher_unqualified' FROM mine m WHERE m.teacher_id IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM staff_teacherunit tu WHERE tu.teacher_id = m.teacher_id AND tu.unit_id = m.unit_id)
  UNION ALL
  SELECT m.id, 'teacher_unavailable' FROM mine m JOIN staff_teacher t ON t.id = m.teacher_id
    WHERE (t.availability = 'day' AND {evening}) OR (t.availability = 'evening' AND NOT {evening})
  UNION ALL
  SELECT m.id, 'teacher_inactive' FROM mine m JOIN staff_teacher t ON t.id = m.teacher_id WHERE NOT t.is_active
  UNION ALL
  SELECT m.id, 'teacher_contract_expired' FROM mine m JOIN staff_teacher t ON t.id = m.teacher_id
    WHERE t.employment_type = 'fixed_term' AND t.expiry_date IS NOT NULL AND m.actual_date > t.expiry_date
  UNION ALL
  SELECT m.id, 'teacher_over_capacity' FROM mine m JOIN weeks w ON w.teacher_id = m.teacher_id AND w.wk = m.wk),
types AS (SELECT id, array_agg(DISTINCT t ORDER BY t) AS types FROM hits GROUP BY id)
SELECT coalesce(json_agg(json_build_object(
  'id', s.id, 'blockGroupId', s.block_group_id, 'unitId', s.unit_id, 'teacherId', s.teacher_id,
  'dayOfWeek', s.day_of_week, 'startTime', to_char(s.start_time, 'HH24:MI:SS'), 'endTime', to_char(s.end_time, 'HH24:MI:SS'),
  'room', s.room, 'roomId', s.room_record_id, 'weekNumber', s.week_number, 'actualDate', s.actual_date, 'term', s.term,
  'actualHours', s.actual_hours::float8, 'status', s.status, 'notes', s.notes,
  'createdAt', {ts.format("s.created_at")}, 'updatedAt', {ts.format("s.updated_at")},
  'unit', json_build_object('id', u.id, 'code', u.code, 'name', u.name),
  'blockGroup', json_build_object('id', g.id, 'code', g.code, 'name', g.name),
  'teacher', CASE WHEN t.id IS NULL THEN NULL ELSE json_build_object(
      'id', t.id, 'firstName', t.first_name, 'lastName', t.last_name, 'name', btrim(t.first_name || ' ' || t.last_name)) END,
  'conflicts', coalesce(ty.types, ARRAY[]::text[])
) ORDER BY s.actual_date, s.start_time, g.code), '[]')::text
FROM timetabling_timetablesession s JOIN planning_blockgroup g ON g.id = s.block_group_id
JOIN catalogue_unit u ON u.id = s.unit_id LEFT JOIN staff_teacher t ON t.id = s.teacher_id
LEFT JOIN types ty ON ty.id = s.id
WHERE s.organization_id = %(org)s AND s.block_group_id = %(bg)s"""


def canonical(rows: list) -> list:
    """Rows sorted by id with datetimes parsed (isoformat drops a zero microsecond, to_char does not)."""
    out = []
    for r in rows:
        r = dict(r)
        for key in ("createdAt", "updatedAt"):
            r[key] = datetime.fromisoformat(r[key])
        out.append(r)
    return sorted(out, key=lambda r: r["id"])


# ---------------------------------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_daphne(url: str, port: int):
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(DATABASE_URL=url, DJANGO_SETTINGS_MODULE="project.settings", LOG_LEVEL="ERROR", PYTHONPATH=str(ROOT))
    log = tempfile.NamedTemporaryFile(prefix="reads_bench_", suffix=".log", delete=False)
    daphne = ROOT / ".venv" / "bin" / "daphne"
    proc = subprocess.Popen(
        [str(daphne if daphne.exists() else "daphne"), "-b", "127.0.0.1", "-p", str(port), "project.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            sys.exit(f"daphne exited: {Path(log.name).read_text()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc, log
        except OSError:
            time.sleep(0.1)
    proc.kill()
    sys.exit("daphne did not start")


def get(conn: http.client.HTTPConnection, path: str, cookie: str) -> tuple[float, bytes]:
    """One GET as a browser sends it (``Accept-Encoding: gzip``): (ms until the body is read, JSON bytes).
    The body is decompressed after the clock stops."""
    import gzip

    headers = {"Cookie": f"sessionid={cookie}", "Host": "localhost", "Accept-Encoding": "gzip, deflate"}
    t0 = time.perf_counter()
    try:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
    except (http.client.RemoteDisconnected, ConnectionError):  # daphne closed an idle keep-alive: reconnect
        conn.close()
        t0 = time.perf_counter()
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
    body = response.read()
    elapsed = (time.perf_counter() - t0) * 1000
    if response.status != 200:
        raise RuntimeError(f"{path}: {response.status} {body[:300]!r}")
    if response.getheader("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    return elapsed, body


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def measure_reads(port: int, cookie: str, reads: dict, org, runs: int) -> None:
    """Per read: p50 right after a change (the organization's event sequence raised before each run, as
    a write does, so the answer is built: the figure compared with the floor) and p50 unchanged (the
    answer kept since the last change, project/core/response_cache.py)."""
    import psycopg

    url = os.environ["DATABASE_URL"]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    base = statistics.median(get(conn, "/api/auth/user", cookie)[0] for _ in range(runs))
    print(f"\nframework baseline (GET /api/auth/user: session, user, one small answer): p50 {base:.1f} ms")
    print(
        f"{'read':<28} {'rows':>6} {'after change':>13} {'SQL p50':>10} {'ratio':>6} {'unchanged':>10}"
        f"  (p50 of {runs} runs, ms; ratio: after change / (SQL + baseline))"
    )
    with psycopg.connect(url, autocommit=True) as db:

        def change():  # what every write does to the sequence (realtime.events.emit_change)
            db.execute("UPDATE accounts_organization SET event_seq = event_seq + 1 WHERE id = %s", [org.pk])

        for label, (path, (kind, bg)) in reads.items():
            params = {"org": org.pk, "bg": bg}
            sql = floor_sql(kind)
            change()
            api_json = json.loads(get(conn, path, cookie)[1])
            floor_json = json.loads(db.execute(sql, params).fetchone()[0])
            if canonical(api_json) != canonical(floor_json):
                a, b = canonical(api_json), canonical(floor_json)
                diff = next((x, y) for x, y in zip(a, b, strict=True) if x != y) if len(a) == len(b) else (len(a), len(b))
                sys.exit(f"{label}: the API and the floor differ: {diff}")
            built = []
            for _ in range(runs):
                change()
                built.append(get(conn, path, cookie)[0])
            kept = [get(conn, path, cookie)[0] for _ in range(runs)]
            floor_t = []
            for _ in range(runs):
                t0 = time.perf_counter()
                db.execute(sql, params).fetchone()
                floor_t.append((time.perf_counter() - t0) * 1000)
            b50, f50, k50 = statistics.median(built), statistics.median(floor_t), statistics.median(kept)
            # The floor: the same JSON from one SQL statement plus the server's signed-in empty request.
            print(f"{label:<28} {len(api_json):>6} {b50:>13.1f} {f50:>10.1f} {b50 / (f50 + base):>5.1f}x {k50:>10.1f}")
    conn.close()


async def clients_mode(
    port: int, cookies: list[str], reads: dict, seconds: float, mix: list[str], served_by: str = "one daphne process"
) -> dict:
    import aiohttp

    paths = [(label, reads[label][0]) for label in mix]
    lat: dict[str, list[float]] = {label: [] for label, _ in paths}
    errors = 0
    stop = time.perf_counter() + seconds

    async def client(i: int, cookie: str):
        nonlocal errors
        # aiohttp, like a browser, sends Accept-Encoding: gzip, deflate and decompresses the body.
        headers = {"Cookie": f"sessionid={cookie}", "Host": "localhost"}
        async with aiohttp.ClientSession(headers=headers) as http_:
            n = i
            while time.perf_counter() < stop:
                label, path = paths[n % len(paths)]
                n += 1
                t0 = time.perf_counter()
                async with http_.get(f"http://127.0.0.1:{port}{path}") as response:
                    await response.read()
                    if response.status != 200:
                        errors += 1
                lat[label].append((time.perf_counter() - t0) * 1000)

    t0 = time.perf_counter()
    await asyncio.gather(*(client(i, c) for i, c in enumerate(cookies)))
    wall = time.perf_counter() - t0
    every = [x for v in lat.values() for x in v]
    print(f"\n{len(cookies)} clients, {seconds:.0f} s, {served_by}, mix: {', '.join(mix)}")
    print(
        f"  {len(every)} requests, {len(every) / wall:.1f} requests/s, p50 {pct(every, 50):.0f} ms, "
        f"p99 {pct(every, 99):.0f} ms, errors {errors} (target p99 < 300 ms)"
    )
    for label, values in lat.items():
        if values:
            print(f"  {label:<28} n={len(values):<5} p50 {pct(values, 50):>6.0f} ms  p99 {pct(values, 99):>6.0f} ms")
    return {"requests": len(every), "rps": len(every) / wall, "p50": pct(every, 50), "p99": pct(every, 99), "errors": errors}


def choose_mix(reads: dict, mix: str) -> list[str]:
    """The labels of ``--mix`` ('all' or a comma-separated subset of timetable-small, timetable-big,
    teachers, block)."""
    labels = list(reads)
    if mix == "all":
        return labels
    keymap = {"timetable-small": labels[0], "timetable-big": labels[1], "teachers": labels[2], "block": labels[3]}
    wanted = mix.split(",")
    unknown = [w for w in wanted if w not in keymap]
    if unknown:
        sys.exit(f"--mix: unknown {unknown}; choose from {sorted(keymap)}")
    return [keymap[w] for w in wanted]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--clients", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument(
        "--mix", default="all", help="'all' or a comma-separated subset of timetable-small, timetable-big, teachers, block"
    )
    parser.add_argument("--reseed", action="store_true")
    args = parser.parse_args()

    if args.clients:
        try:
            import aiohttp  # noqa: F401
        except ImportError:
            sys.exit("--clients needs aiohttp (pyproject's test extra): run scripts/setup.sh --test")
    url, org = setup(args.reseed)
    reads = pick_reads(org)
    cookies = sessions_for(org, max(1, args.clients))
    from django.db import connections

    connections.close_all()
    port = free_port()
    proc, log = start_daphne(url, port)
    try:
        for path, _ in reads.values():  # warm the process (imports, first connection)
            get(http.client.HTTPConnection("127.0.0.1", port, timeout=120), path, cookies[0])
        measure_reads(port, cookies[0], reads, org, args.runs)
        if args.clients:
            labels = choose_mix(reads, args.mix)
            for label in labels:  # steady state: every answer built since the last change
                get(http.client.HTTPConnection("127.0.0.1", port, timeout=120), reads[label][0], cookies[0])
            asyncio.run(clients_mode(port, cookies, reads, args.seconds, labels))
    finally:
        stop_server(proc, log)
    print(f"\nmachine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
