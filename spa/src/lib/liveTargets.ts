/**
 * A change costs what changed (docs/adr/0008): what a change event refetches.
 *
 * - Timetable lists (`[...roots.timetables, "list", filters]`): a session event names the rows it wrote
 *   (`sessions: [{id, blockGroupId, teacherId, room, roomId, date, unitId, hours, status}]`). A loaded list that shows none of the ids and
 *   whose filters match none of the written rows does nothing (no request). A list that shows or should
 *   show some takes those rows from the event (`rows`, ADR 0032: a write of at most 50 rows carries them
 *   as `?ids=` answers them), or else fetches them (`GET /api/timetables?ids=`), and patches its cache: rows that still
 *   match are replaced or inserted in date order, the others removed. When a fetched or replaced row has
 *   conflicts, neighbours' conflict flags may change too, so that one list is refetched whole.
 *   Patches cannot go backwards (ADR 0008, amendment): the fetched rows are written into the cache as it
 *   is when the fetch returns (`setQueryData` with an updater), a fetched row older than the cached one
 *   (`updatedAt`) is dropped, the patches of one list run one at a time (events arriving meanwhile are
 *   merged into one next patch), and a patch whose read raced a whole refetch of its list reads again.
 * - Aggregate screens (dashboard, reports, allocation grid, block group and teacher hours, conflict lists,
 *   auto-allocation proposals) refetch through a coalescer: at once for the first change, then at most
 *   once a second while changes keep coming (trailing), so a screen has converged about a second after
 *   the last change of a burst (ADR 0025).
 * - The other screens a session change may touch decide from the rows before and after the write
 *   (`sessionConcerns`, ADR 0025): the teacher list, details and choices never (no field of theirs comes
 *   from sessions); a teacher's delivery summary, an allocation grid and its cells only for a row of
 *   theirs (teacher, week or year); reports only for a row in their year (and the block groups without
 *   timetables only for a created or moved row); a block group's hours and scheduling screens only for a
 *   row of that group. The block group lists and details show `timetableCount`, which only a created or
 *   moved row changes: they fetch just the changed groups (`GET /api/block-groups/{id}`) and patch them in.
 * - A schedule generated or cleared (ids: the block group's) names no rows but sums them up (`schedule`,
 *   ADR 0033: the dates, teachers and rooms of the rows created or deleted): the group's lists refetch
 *   whole, another list only when a row it shows may change its conflicts (`scheduleConcernsList`), the
 *   block group lists showing the group refetch, the other screens decide from its dates, teachers and
 *   rooms (`scheduleConcerns`, the dashboard's spans, a wall display's day).
 * - Anything it cannot decide (no row details: a delete or a very large write; an entity it does not
 *   know) falls back to invalidating what `entityInvalidates` names. A seq gap or a reconnect still
 *   refetches everything (lib/socket.ts).
 */
import type { InvalidateQueryFilters, QueryClient } from "@tanstack/react-query";
import { ApiError, client } from "./api";
import type { components } from "./api-schema";
import { entityInvalidates, roots } from "./queryKeys";

type Session = components["schemas"]["SessionOut"];

type ChangeEvent = components["schemas"]["ChangeEvent"];

/**
 * One session of a `timetable_session` event, as written (`sessions`) or before the write (`before`, ADR 0025),
 * as the patches read it: the server always sends `room` and `roomId`, the patches do not need them.
 */
export type SessionDetail = Omit<ChangeEventSession, OptionalDetail> & Partial<Pick<ChangeEventSession, OptionalDetail>>;
type OptionalDetail = "room" | "roomId" | "unitId" | "hours" | "status";
type ChangeEventSession = components["schemas"]["ChangeEventSession"];

/** What the live patches read of a change event (the generated `ChangeEvent`, lib/socket.ts): its entity and ids, the rest when present. */
export type LiveEvent = Pick<ChangeEvent, "entity" | "ids"> &
  Partial<Pick<ChangeEvent, "action" | "seq">> & {
    sessions?: SessionDetail[] | null;
    before?: SessionDetail[] | null;
    rows?: unknown[] | null;
    schedule?: ChangeEventSchedule | null;
  };

type ChangeEventSchedule = components["schemas"]["ChangeEventSchedule"];

/** A schedule generated or cleared (ADR 0033): its block group and the dates, teachers and rooms of the rows it created or deleted. */
export type Schedule = ChangeEventSchedule & { groupId: string; cleared: boolean };

/** The schedule of a `scheduled` / `schedule_cleared` event (its ids are the block group's), or null for any other event or one without it. */
export function scheduleOf(event: LiveEvent): Schedule | null {
  if (event?.entity !== "timetable_session" || (event.action !== "scheduled" && event.action !== "schedule_cleared")) return null;
  const s = event.schedule;
  if (!Array.isArray(event.ids) || event.ids.length !== 1 || !s) return null;
  if (![s.dates, s.teacherIds, s.roomIds, s.rooms].every((list) => Array.isArray(list) && list.every((v) => typeof v === "string"))) return null;
  if (!Array.isArray(s.times) || !s.times.every((t) => typeof t?.start === "string" && typeof t?.end === "string")) return null;
  return { ...s, groupId: event.ids[0], cleared: event.action === "schedule_cleared" };
}

/**
 * Every date a session event touches, before and after the write (a schedule generated or cleared: the
 * dates of the rows it created or deleted), or null when the event cannot say.
 */
export function touchedDates(event: LiveEvent): string[] | null {
  if (event?.entity !== "timetable_session") return null;
  if (!Array.isArray(event.sessions) || !Array.isArray(event.before)) return scheduleOf(event)?.dates ?? null;
  const dates = [...event.sessions, ...event.before].map((d) => d.date);
  return dates.every((d): d is string => typeof d === "string") ? dates : null;
}

const isoDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
const plusDays = (d: Date, n: number) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);
/** The Monday of the week of `d` (a local date). */
const mondayOfDate = (d: Date) => plusDays(d, -((d.getDay() + 6) % 7));

/** Monday (`YYYY-MM-DD`) of the week of an ISO date. */
function mondayOf(iso: string): string {
  const [y, m, d] = iso.split("-").map(Number);
  return isoDay(mondayOfDate(new Date(y, m - 1, d)));
}

/**
 * The dates (inclusive `YYYY-MM-DD` span) a dashboard query shows, widened by a day on each side (the
 * server counts in the user's timezone, this in the browser's): stats and workload this Monday-Sunday
 * week, upcoming sessions today and the 6 days after, teacher allocations their `start`..`end`. Null for a
 * query whose span is unknown (any session change may concern it).
 */
export function dashboardSpan(queryKey: readonly unknown[], now: Date = new Date()): [string, string] | null {
  const part = queryKey[1];
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  if (part === "stats" || part === "teacher-workload") {
    const monday = mondayOfDate(today);
    return [isoDay(plusDays(monday, -1)), isoDay(plusDays(monday, 7))];
  }
  if (part === "upcoming-sessions") return [isoDay(plusDays(today, -1)), isoDay(plusDays(today, 7))];
  const range = queryKey[2] as { start?: string; end?: string } | undefined;
  if (part === "teacher-allocations" && range?.start && range?.end) {
    const [y1, m1, d1] = range.start.split("-").map(Number);
    const [y2, m2, d2] = range.end.split("-").map(Number);
    return [isoDay(new Date(y1, m1 - 1, d1 - 1)), isoDay(new Date(y2, m2 - 1, d2 + 1))];
  }
  return null;
}

/**
 * Whether a session change (with `before`) may change a timetable's conflict list of `filters`: when a
 * row it wrote matches the filters before or after, or falls on a day on which the matching list shows a
 * session (a clash needs the same day: teacher, room, cohort or linked group). Unknown when that list is
 * not loaded: concerned.
 */
export function conflictsConcerned(queryClient: QueryClient, conflictsKey: readonly unknown[], event: LiveEvent): boolean {
  const filters = (conflictsKey[2] ?? {}) as ListFilters;
  const rows = [...(event.sessions ?? []), ...(event.before ?? [])];
  const today = localToday();
  if (rows.some((d) => matches({ ...filters, hidePast: false }, d, today))) return true;
  const list = queryClient.getQueryData([...roots.timetables, "list", filters]) as Session[] | undefined;
  if (!Array.isArray(list)) return true;
  const days = new Set(list.map((r) => r.actualDate));
  return rows.some((d) => d.date === null || days.has(d.date));
}

/** Whether a session change touching `dates` (null: unknown) concerns a screen showing `span` (null: all). */
export function touchesSpan(dates: string[] | null, span: [string, string] | null): boolean {
  if (dates === null || span === null) return true;
  return dates.some((d) => d >= span[0] && d <= span[1]);
}

interface ListFilters {
  blockGroupId?: string | null;
  teacherId?: string | null;
  roomId?: string | null;
  hidePast?: boolean;
}

export const COALESCE_MS = 1000;

/**
 * The first refetch of an aggregate waits a random 0..`SPREAD_MS` (ADR 0031): every open screen of the
 * organization gets the same event in the same few milliseconds, and a write that concerns them all (a
 * schedule generated) would otherwise have every coordinator's lists and every wall display ask the server
 * in the same instant, and the last of them wait behind all the others. Spread over half a second, the
 * server answers each as it comes; the screens still converge within about 1.5 s of the last change.
 */
export const SPREAD_MS = 500;

/**
 * A wall display's board waits a random 0..`DISPLAY_SPREAD_MS` before it reads again (ADR 0031): see
 * `createSpreadRefetch`. Short enough that a board still shows a change within a second of it (the event,
 * the wait, the read and the drawing).
 */
export const DISPLAY_SPREAD_MS = 400;

/**
 * `invalidateQueries` for a change that happened on the server. TanStack restarts an in-flight fetch on
 * invalidate only when the query already has data; a first fetch still running is left alone, and its
 * answer, read before the change, is then kept as fresh (a change made while a screen is still loading
 * never showed). So the shown queries of `filters` in their first fetch are cancelled (silently, the
 * state reverted) and fetched again.
 */
export function invalidateLive(queryClient: QueryClient, filters?: InvalidateQueryFilters) {
  const firstReads = queryClient
    .getQueryCache()
    .findAll(filters ?? {})
    .filter((query) => query.state.fetchStatus === "fetching" && query.state.data === undefined && query.isActive());
  const done = filters ? queryClient.invalidateQueries(filters) : queryClient.invalidateQueries();
  for (const query of firstReads) {
    void query.cancel({ revert: true, silent: true });
    void query.fetch().catch(() => undefined); // its observers show this answer; errors reach them as usual
  }
  return done;
}

/** Screens whose answer sums many rows: refetched at most once every `COALESCE_MS` (leading and trailing). */
const AGGREGATE_ROOTS: readonly (readonly string[])[] = [roots.dashboard, roots.reports, roots.allocationGrid, roots.blockGroups, roots.teachers];

export type FetchRows = (ids: string[]) => Promise<Session[]>;

const fetchRowsByIds: FetchRows = async (ids) => {
  const { data } = await client.GET("/api/timetables", { params: { query: { ids: ids.join(",") } } });
  return data ?? [];
};

function localToday(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

function matches(filters: ListFilters, row: { blockGroupId: string; teacherId: string | null; roomId?: string | null; date: string | null }, today: string) {
  if (filters.blockGroupId && filters.blockGroupId !== row.blockGroupId) return false;
  if (filters.teacherId && filters.teacherId !== row.teacherId) return false;
  if (filters.roomId && filters.roomId !== (row.roomId ?? null)) return false;
  if (filters.hidePast && row.date !== null && row.date < today) return false;
  return true;
}

const byDateAndTime = (a: Session, b: Session) =>
  a.actualDate === b.actualDate ? (a.startTime < b.startTime ? -1 : a.startTime > b.startTime ? 1 : 0) : a.actualDate < b.actualDate ? -1 : 1;

export interface SpreadOptions {
  /** At most one run per this many ms while calls keep coming (default `COALESCE_MS`). */
  intervalMs?: number;
  /** The first run waits a random 0..this many ms (default 0: at once). */
  spreadMs?: number;
  /** For tests: a number in [0, 1). */
  random?: () => number;
  /** Called when the last run's interval has passed without a call (nothing left to do). */
  onIdle?: () => void;
}

/**
 * Runs `fire` after a random 0..`spreadMs` (at once when 0), then at most once per `intervalMs` while calls
 * keep coming (one trailing run for all the calls of an interval). Calls made before the first run are
 * answered by it: it starts after them.
 */
export function createSpreadRefetch(fire: () => void, { intervalMs = COALESCE_MS, spreadMs = 0, random = Math.random, onIdle }: SpreadOptions = {}) {
  let state: "idle" | "waiting" | "cooling" = "idle";
  let pending = false;
  const tick = () => {
    if (pending) {
      pending = false;
      fire();
      setTimeout(tick, intervalMs);
    } else {
      state = "idle";
      onIdle?.();
    }
  };
  const first = () => {
    state = "cooling";
    pending = false;
    fire();
    setTimeout(tick, intervalMs);
  };
  return () => {
    if (state === "waiting") return; // the run still to come reads after this change
    if (state === "cooling") {
      pending = true;
      return;
    }
    const delay = spreadMs > 0 ? Math.floor(random() * spreadMs) : 0;
    if (delay === 0) first();
    else {
      state = "waiting";
      setTimeout(first, delay);
    }
  };
}

/**
 * Invalidates a key after a random 0..`spreadMs` (at once by default), then at most once per `intervalMs`
 * while calls keep coming (trailing): `createSpreadRefetch` per key.
 */
export function createCoalescer(queryClient: QueryClient, options: Omit<SpreadOptions, "onIdle"> = {}) {
  const state = new Map<string, () => void>();
  return {
    invalidate(key: readonly unknown[]) {
      const id = JSON.stringify(key);
      let refetch = state.get(id);
      if (!refetch) {
        refetch = createSpreadRefetch(() => void invalidateLive(queryClient, { queryKey: key }), { ...options, onIdle: () => state.delete(id) });
        state.set(id, refetch);
      }
      refetch();
    },
  };
}

export type Coalescer = ReturnType<typeof createCoalescer>;

/** What `applyChange` did, for tests and the collaboration benchmark. */
export interface Applied {
  patched: number; // timetable lists patched from `?ids=`
  refetched: number; // timetable lists refetched whole
  untouched: number; // loaded timetable lists the change did not concern (no request)
  fallback: boolean; // fell back to invalidating what the entity names
  skipped: number; // loaded dashboard panels the change did not concern (no request)
}

/** The row fields a list's filters look at, from a fetched row. */
const routingOf = (r: Session) => ({ blockGroupId: r.blockGroupId, teacherId: r.teacherId ?? null, roomId: r.roomId ?? null, date: r.actualDate });

/** True when `a` was written before `b` (`updatedAt`); rows without a stamp are never "older". */
function olderThan(a: Session, b: Session): boolean {
  const ta = Date.parse(a.updatedAt ?? "");
  const tb = Date.parse(b.updatedAt ?? "");
  return Number.isFinite(ta) && Number.isFinite(tb) && ta < tb;
}

/**
 * Merges fetched rows into a list as it is now (`current`, the cache at the moment the fetch returned):
 * `ids` are the rows the fetch asked for, `rows` what the server had of them. A fetched row that is older
 * than the cached one (`updatedAt`) is dropped, as is the removal of a cached row by an older copy; a row
 * the server no longer has is removed. Returns null when a row involved has conflicts (the caller
 * refetches the whole list: neighbours' flags may have changed).
 */
export function mergeRows(current: Session[], ids: readonly string[], rows: Session[], filters: ListFilters, today: string): Session[] | null {
  const wanted = new Set(ids);
  const cached = new Map(current.filter((r) => wanted.has(r.id)).map((r) => [r.id, r]));
  if ([...cached.values(), ...rows].some((r) => (r.conflicts ?? []).length > 0)) return null;
  const fetched = new Map(rows.map((r) => [r.id, r]));
  // The newer of the cached and the fetched copy of each asked-for row, null when it is not to be shown.
  const pick = (id: string): Session | null => {
    const old = cached.get(id);
    const row = fetched.get(id);
    if (row === undefined) return null; // gone on the server
    if (old !== undefined && olderThan(row, old)) return old; // the cache already has a later version
    return matches(filters, routingOf(row), today) ? row : null;
  };
  const next: Session[] = [];
  for (const r of current) {
    if (!wanted.has(r.id)) next.push(r);
    else {
      const chosen = pick(r.id);
      if (chosen) next.push(chosen);
    }
  }
  for (const id of wanted) {
    if (cached.has(id)) continue;
    const chosen = pick(id);
    if (chosen) next.push(chosen);
  }
  return next.sort(byDateAndTime);
}

/**
 * Per list (query hash): the patch running now and the ids waiting for the next one. Patches of one list
 * run one after the other, each fetch started after the previous patch is in the cache; ids of events that
 * arrive while one runs are merged into the single next patch (a burst costs a few fetches, not one per
 * event).
 */
interface ListQueue {
  running: boolean;
  queued: { ids: Set<string>; rows: Map<string, Session>; waiters: (() => void)[] } | null;
}

/**
 * The rows of a patch: those an event carried (`rows`, ADR 0032: as the server had them after that write,
 * the latest event's copy of each), the others fetched (`?ids=`; a row an event named but did not carry,
 * gone or not, is asked for).
 */
function readWith(carried: Map<string, Session> | null, fetchRows: FetchRows): FetchRows {
  if (carried === null || carried.size === 0) return fetchRows;
  return async (ids) => {
    const missing = ids.filter((id) => !carried.has(id));
    const fetched = missing.length > 0 ? await fetchRows(missing) : [];
    return [...ids.filter((id) => carried.has(id)).map((id) => carried.get(id)!), ...fetched];
  };
}
const listQueues = new WeakMap<QueryClient, Map<string, ListQueue>>();

type Query = ReturnType<ReturnType<QueryClient["getQueryCache"]>["findAll"]>[number];

/**
 * One patch of one list: fetch `ids`, then write them into the cache *as it is when the fetch returns*
 * (`setQueryData` with an updater, never a copy taken before the await). When the cache was written by
 * anything else while the fetch ran (a whole refetch landing, which may have read before or after this
 * fetch), the answer cannot be ordered against it, so the patch fetches again; a whole refetch still in
 * flight is awaited first (its answer would overwrite the patch). `first` is the fetch shared by the lists
 * patched for the same event at once, used only for the first attempt.
 */
async function patchList(queryClient: QueryClient, query: Query, ids: string[], fetchRows: FetchRows, applied: Applied, first: Promise<Session[]> | null) {
  const filters = (query.queryKey[2] ?? {}) as ListFilters;
  for (let attempt = 0; attempt < 5; attempt++) {
    while (query.state.fetchStatus === "fetching") await query.fetch().catch(() => undefined);
    if (!Array.isArray(query.state.data)) return; // gone or reset: it fetches fresh when shown
    const stamp = query.state.dataUpdateCount;
    let rows: Session[];
    try {
      rows = await (attempt === 0 && first ? first : fetchRows(ids));
    } catch {
      applied.refetched += 1;
      await invalidateLive(queryClient, { queryKey: query.queryKey, exact: true });
      return;
    }
    const raced = query.state.dataUpdateCount !== stamp || (query.state.fetchStatus as string) === "fetching";
    if (raced) continue; // the cache moved (or is about to) while the read was out: read again
    let whole = false;
    queryClient.setQueryData<Session[]>(query.queryKey, (current) => {
      if (!Array.isArray(current)) return current;
      const next = mergeRows(current, ids, rows, filters, localToday());
      if (next === null) whole = true;
      return next ?? current;
    });
    if (whole) {
      applied.refetched += 1;
      await invalidateLive(queryClient, { queryKey: query.queryKey, exact: true });
    } else applied.patched += 1;
    return;
  }
  applied.refetched += 1; // kept racing with whole refetches: one more whole read settles it
  await invalidateLive(queryClient, { queryKey: query.queryKey, exact: true });
}

/** Runs or queues a patch of `ids` for one list (see `ListQueue`); resolves when those ids are in. */
function schedulePatch(
  queryClient: QueryClient,
  query: Query,
  ids: string[],
  fetchRows: FetchRows,
  applied: Applied,
  shared: () => Promise<Session[]>,
  carried: Map<string, Session> | null,
): Promise<void> {
  const map = listQueues.get(queryClient) ?? new Map<string, ListQueue>();
  listQueues.set(queryClient, map);
  const hash = query.queryHash;
  const q = map.get(hash) ?? { running: false, queued: null };
  map.set(hash, q);
  const run = (runIds: string[], first: Promise<Session[]> | null, rows: Map<string, Session> | null): Promise<void> => {
    q.running = true;
    return patchList(queryClient, query, runIds, readWith(rows, fetchRows), applied, first).finally(() => {
      const next = q.queued;
      q.queued = null;
      if (next) {
        void run([...next.ids], null, next.rows).finally(() => {
          for (const done of next.waiters) done();
        });
      } else {
        q.running = false;
        map.delete(hash);
      }
    });
  };
  if (!q.running) return run(ids, carried ? null : shared(), carried); // carried rows: only the others are asked for
  if (!q.queued) q.queued = { ids: new Set(), rows: new Map(), waiters: [] };
  const queued = q.queued;
  for (const id of ids) {
    queued.ids.add(id);
    // The latest event's copy of a row; a later event that did not carry it makes the patch ask for it.
    const row = carried?.get(id);
    if (row) queued.rows.set(id, row);
    else queued.rows.delete(id);
  }
  return new Promise((resolve) => queued.waiters.push(resolve));
}

async function patchTimetableLists(queryClient: QueryClient, event: LiveEvent, fetchRows: FetchRows, applied: Applied) {
  const details = new Map((event.sessions ?? []).map((d) => [d.id, d]));
  // The written rows as the server answered `?ids=` after the write (ADR 0032), when the event carries them.
  const carried = Array.isArray(event.rows) ? new Map((event.rows as Session[]).map((r) => [r.id, r])) : null;
  const today = localToday();
  const fetches = new Map<string, Promise<Session[]>>(); // lists patched at once for this event share a fetch
  const work: Promise<void>[] = [];
  for (const query of queryClient.getQueryCache().findAll({ queryKey: [...roots.timetables, "list"] })) {
    const data = query.state.data as Session[] | undefined;
    const filters = (query.queryKey[2] ?? {}) as ListFilters;
    if (!Array.isArray(data)) continue; // not loaded: it fetches fresh when shown
    const shown = new Set(data.map((r) => r.id));
    const relevant = event.ids.filter((id) => {
      const d = details.get(id);
      return shown.has(id) || (d !== undefined && matches(filters, d, today));
    });
    if (relevant.length === 0) {
      applied.untouched += 1;
      continue;
    }
    const key = relevant.join(",");
    const shared = () => {
      let fetch = fetches.get(key);
      if (!fetch) {
        fetch = fetchRows(relevant);
        fetch.catch(() => undefined);
        fetches.set(key, fetch);
      }
      return fetch;
    };
    work.push(schedulePatch(queryClient, query, relevant, fetchRows, applied, shared, carried));
  }
  await Promise.all(work);
}

type BlockGroup = components["schemas"]["BlockGroupOut"];
type RowDetails = { sessions: SessionDetail[]; before: SessionDetail[] };

/** The rows of a session event with `before` (both lists), or null when it cannot say (see `touchedDates`). */
function rowDetails(event: LiveEvent): RowDetails | null {
  if (!Array.isArray(event.sessions) || !Array.isArray(event.before) || touchedDates(event) === null) return null;
  return { sessions: event.sessions, before: event.before };
}

const inYear = (date: string | null, year: unknown) => date !== null && Number(date.slice(0, 4)) === Number(year);

/**
 * The block groups whose `timetableCount` a session event may change: those of rows it created (no
 * `before` row) and both groups of a row moved to another group. An update in place changes no count.
 */
export function countChangedGroups(rows: RowDetails): string[] {
  const before = new Map(rows.before.map((d) => [d.id, d]));
  const groups = new Set<string>();
  for (const d of rows.sessions) {
    const old = before.get(d.id);
    if (old === undefined) groups.add(d.blockGroupId);
    else if (old.blockGroupId !== d.blockGroupId) {
      groups.add(d.blockGroupId);
      groups.add(old.blockGroupId);
    }
  }
  return [...groups];
}

/** What a sum of hours reads of a session (a room, its times or its notes alone change no sum). */
const HOUR_FIELDS = ["date", "teacherId", "blockGroupId", "unitId", "hours", "status"] as const;

/**
 * Whether a session change may change a sum of hours or sessions (the dashboard's weekly hours and teacher
 * workload, the hours reports; ADR 0031): a row created or removed, or one whose date, teacher, block
 * group, unit, hours or status differ before and after. A field the event does not carry counts as changed.
 */
export function hoursTouched(rows: RowDetails): boolean {
  const before = new Map(rows.before.map((d) => [d.id, d]));
  const after = new Set(rows.sessions.map((d) => d.id));
  if (rows.before.some((d) => !after.has(d.id))) return true;
  return rows.sessions.some((d) => {
    const old = before.get(d.id);
    return old === undefined || HOUR_FIELDS.some((f) => d[f] === undefined || old[f] === undefined || d[f] !== old[f]);
  });
}

/** Teacher rows carry no session figure: the list, the choices and a teacher's own record never change with a session. */
function teacherRecordOnly(key: readonly unknown[]): boolean {
  const part = key[1];
  return part === "list" || part === "choices" || part === "availability" || part === "leave" || (part === "detail" && key.length === 3);
}

/**
 * Whether a session change (rows before and after the write) may change what the query `key` (under the
 * teachers, block groups, allocation grid or reports root) shows, given its cached `data`. True for a key
 * it does not know. Block group lists and details are decided by `countChangedGroups` instead.
 */
export function sessionConcerns(key: readonly unknown[], rows: RowDetails, data: unknown): boolean {
  const all = [...rows.sessions, ...rows.before];
  const [root, part] = key;
  if (root === roots.teachers[0]) {
    if (teacherRecordOnly(key)) return false;
    if (part === "detail" && key[3] === "delivery-summary") return hoursTouched(rows) && all.some((d) => d.teacherId === key[2] && inYear(d.date, key[4]));
    if (part === "unavailable") return all.some((d) => d.teacherId === key[2]);
    return true;
  }
  if (root === roots.blockGroups[0]) {
    if (part === "choices" || part === "linkable") return false;
    if (part === "detail" && key[3] === "study-plans") return false;
    if (part === "detail" && key.length > 3) return all.some((d) => d.blockGroupId === key[2]); // hours, scheduling
    return true;
  }
  if (root === roots.allocationGrid[0]) {
    const taught = all.filter((d) => d.teacherId !== null && d.date !== null);
    if (part === "week") {
      const [y, m, day] = String(key[3]).split("-").map(Number);
      const end = isoDay(new Date(y, m - 1, day + 6));
      return taught.some((d) => d.teacherId === key[2] && d.date! >= String(key[3]) && d.date! <= end);
    }
    // The grid of a year or term: its weeks (cached) or, before it loaded, its year.
    const weeks = (data as { weeks?: { weekStart: string; weekEnd: string }[] } | undefined)?.weeks;
    if (Array.isArray(weeks)) return weeks.length > 0 && taught.some((d) => d.date! >= weeks[0].weekStart && d.date! <= weeks[weeks.length - 1].weekEnd);
    return true;
  }
  if (root === roots.reports[0]) {
    if (part === "block-groups-without-timetables") return countChangedGroups(rows).length > 0;
    if (part === "teacher-workload") return hoursTouched(rows) && all.some((d) => d.teacherId !== null && inYear(d.date, key[2]));
    if (part === "room-utilisation") return all.some((d) => ((d.roomId ?? null) !== null || Boolean(d.room)) && inYear(d.date, key[2]));
    if (part === "scheduling-summary" || part === "load-planning") return hoursTouched(rows) && all.some((d) => inYear(d.date, key[2]));
    return true;
  }
  return true;
}

/** A room code as the server compares them (`norm_room`: trimmed, case folded). */
const roomKey = (room: string) => room.trim().toLowerCase();

/** Conflict types a row owes to another row (docs/behaviour/conflicts.md): a teacher's on one day, in one week, a room's at one time. */
const TEACHER_DAY_CONFLICTS = ["teacher_double_booked", "teacher_over_daily_hours"];
const TEACHER_WEEK_CONFLICTS = ["teacher_over_weekly_hours", "teacher_over_capacity", "teacher_over_days"];
const ROOM_TIME_CONFLICTS = ["room_double_booked"];

/**
 * Whether a schedule generated or cleared (ADR 0033) may change the timetable list of `filters`, given its
 * cached rows (`data`; not loaded: concerned). The group's own lists and lists of every session change
 * whole; a list of a teacher or room of the schedule too (it gains or loses rows). Another group's,
 * teacher's or room's list changes only through its rows' conflict flags, which another row can set only
 * as a room clash (the same room on one of the schedule's dates at an overlapping time) or through a
 * teacher of the schedule (a double booking or daily hours on one of its dates, weekly hours, capacity or
 * days in one of its weeks). Rows created may add such a flag to any row; rows deleted (a clear) can only
 * take away one the row has now.
 */
export function scheduleConcernsList(filters: ListFilters, data: unknown, schedule: Schedule): boolean {
  if (!Array.isArray(data)) return true;
  if (!filters.blockGroupId && !filters.teacherId && !filters.roomId) return true;
  if (filters.blockGroupId === schedule.groupId) return true;
  if (filters.teacherId && schedule.teacherIds.includes(filters.teacherId)) return true;
  if (filters.roomId && schedule.roomIds.includes(filters.roomId)) return true;
  const dates = new Set(schedule.dates);
  const weeks = new Set(schedule.dates.map(mondayOf));
  const teachers = new Set(schedule.teacherIds);
  const roomIds = new Set(schedule.roomIds);
  const rooms = new Set(schedule.rooms.map(roomKey));
  const sameRoom = (r: Session) => (r.roomId != null && roomIds.has(r.roomId)) || (Boolean(r.room) && rooms.has(roomKey(r.room ?? "")));
  const sameTime = (r: Session) => schedule.times.some((t) => r.startTime < t.end && t.start < r.endTime);
  const has = (r: Session, types: string[]) => !schedule.cleared || (r.conflicts ?? []).some((c) => types.includes(c));
  return (data as Session[]).some((r) => {
    if (r.blockGroupId === schedule.groupId) return true;
    if (has(r, ROOM_TIME_CONFLICTS) && dates.has(r.actualDate) && sameRoom(r) && sameTime(r)) return true;
    if (r.teacherId == null || !teachers.has(r.teacherId)) return false;
    return (has(r, TEACHER_DAY_CONFLICTS) && dates.has(r.actualDate)) || (has(r, TEACHER_WEEK_CONFLICTS) && weeks.has(mondayOf(r.actualDate)));
  });
}

/**
 * `sessionConcerns` for a schedule generated or cleared (ADR 0033): whether it may change what the query
 * `key` (under the teachers, block groups, allocation grid or reports root) shows, from the dates,
 * teachers and rooms of the rows it created or deleted, and for a block group list whether it shows the group.
 */
export function scheduleConcerns(key: readonly unknown[], schedule: Schedule, data: unknown): boolean {
  const [root, part] = key;
  const inYearOf = (year: unknown) => schedule.dates.some((d) => inYear(d, year));
  if (root === roots.teachers[0]) {
    if (teacherRecordOnly(key)) return false;
    if (part === "detail" && key[3] === "delivery-summary") return schedule.teacherIds.includes(String(key[2])) && inYearOf(key[4]);
    if (part === "unavailable") return schedule.teacherIds.includes(String(key[2]));
    return true;
  }
  if (root === roots.blockGroups[0]) {
    if (part === "choices" || part === "linkable") return false;
    if (part === "detail" && key[3] === "study-plans") return false;
    if (part === "detail") return key[2] === schedule.groupId; // its count, end date, hours, scheduling
    // A list showing the group refetches whole (its count and end date): every open list reads the one
    // answer the server keeps per change, cheaper than each asking for the group.
    if (part === "list") return !Array.isArray(data) || (data as BlockGroup[]).some((g) => g.id === schedule.groupId);
    return true;
  }
  if (root === roots.allocationGrid[0]) {
    // The grid counts allocated sessions: a generation (rows without a teacher) changes none of it.
    if (schedule.teacherIds.length === 0) return false;
    if (part === "week") {
      const [y, m, day] = String(key[3]).split("-").map(Number);
      const end = isoDay(new Date(y, m - 1, day + 6));
      return schedule.teacherIds.includes(String(key[2])) && schedule.dates.some((d) => d >= String(key[3]) && d <= end);
    }
    const weeks = (data as { weeks?: { weekStart: string; weekEnd: string }[] } | undefined)?.weeks;
    if (Array.isArray(weeks)) return weeks.length > 0 && schedule.dates.some((d) => d >= weeks[0].weekStart && d <= weeks[weeks.length - 1].weekEnd);
    return true;
  }
  if (root === roots.reports[0]) {
    if (part === "block-groups-without-timetables") return true;
    if (part === "teacher-workload") return schedule.teacherIds.length > 0 && inYearOf(key[2]);
    if (part === "room-utilisation") return (schedule.roomIds.length > 0 || schedule.rooms.length > 0) && inYearOf(key[2]);
    if (part === "scheduling-summary" || part === "load-planning") return inYearOf(key[2]);
    return true;
  }
  return true;
}

export type FetchGroup = (id: string) => Promise<BlockGroup | null>;

/** The group as the list shows it (`BlockGroupOut`); a group gone (404) reads as null. */
const fetchGroupById: FetchGroup = async (id) => {
  try {
    const { data } = await client.GET("/api/block-groups/{block_group_id}", { params: { path: { block_group_id: id } } });
    return data ?? null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
};

/** At most this many changed groups are fetched one by one; more refetch the lists whole. */
export const GROUP_PATCH_LIMIT = 5;
const groupChains = new WeakMap<QueryClient, Promise<void>>();

/**
 * Fetches the changed block groups and writes them into every loaded block group list and detail that
 * shows them, as the cache is when the fetch returns. Patches run one after the other (each fetch starts
 * after the previous patch is in, so a later answer never lands before an earlier one); a list that was
 * refetched while the groups were out, or is being refetched, is left to that refetch.
 */
function patchBlockGroups(queryClient: QueryClient, ids: string[], fetchGroup: FetchGroup, applied: Applied, coalescer: Coalescer): Promise<void> {
  const run = async () => {
    const lists = queryClient.getQueryCache().findAll({ queryKey: [...roots.blockGroups, "list"] });
    const details = ids.map((id) => queryClient.getQueryCache().find({ queryKey: [...roots.blockGroups, "detail", id], exact: true }));
    const showing = lists.filter((q) => Array.isArray(q.state.data) && (q.state.data as BlockGroup[]).some((g) => ids.includes(g.id)));
    applied.skipped += lists.length - showing.length;
    const shownDetails = details.filter((q) => q !== undefined && q.state.data !== undefined);
    if (showing.length === 0 && shownDetails.length === 0) return;
    if (ids.length > GROUP_PATCH_LIMIT) {
      for (const q of [...showing, ...shownDetails]) coalescer.invalidate(q!.queryKey);
      return;
    }
    const stamps = new Map([...showing, ...shownDetails].map((q) => [q!.queryHash, q!.state.dataUpdateCount]));
    let groups: (BlockGroup | null)[];
    try {
      groups = await Promise.all(ids.map(fetchGroup));
    } catch {
      for (const q of [...showing, ...shownDetails]) coalescer.invalidate(q!.queryKey);
      return;
    }
    const byId = new Map(ids.map((id, i) => [id, groups[i]]));
    for (const q of [...showing, ...shownDetails]) {
      const query = q!;
      if (query.state.dataUpdateCount !== stamps.get(query.queryHash) || query.state.fetchStatus === "fetching") continue; // a whole read is newer
      if (query.queryKey[1] === "detail") {
        const fresh = byId.get(String(query.queryKey[2]));
        if (fresh) queryClient.setQueryData(query.queryKey, fresh);
        else coalescer.invalidate(query.queryKey);
        continue;
      }
      queryClient.setQueryData<BlockGroup[]>(query.queryKey, (current) =>
        Array.isArray(current) ? current.flatMap((g) => (byId.has(g.id) ? (byId.get(g.id) ? [byId.get(g.id)!] : []) : [g])) : current,
      );
    }
    applied.patched += showing.length;
  };
  const next = (groupChains.get(queryClient) ?? Promise.resolve()).then(run, run);
  groupChains.set(
    queryClient,
    next.catch(() => undefined),
  );
  return next;
}

/** Roots whose queries a session change with rows before and after concerns one by one (`sessionConcerns`). */
const SESSION_DECIDED: readonly (readonly string[])[] = [roots.teachers, roots.blockGroups, roots.allocationGrid, roots.reports];

/**
 * Applies one in-order change event to the cache (see the module comment). Resolves when the patches are
 * in; aggregate refetches are started (and coalesced), not awaited.
 */
export async function applyChange(
  queryClient: QueryClient,
  event: LiveEvent,
  coalescer: Coalescer,
  fetchRows: FetchRows = fetchRowsByIds,
  fetchGroup: FetchGroup = fetchGroupById,
): Promise<Applied> {
  const applied: Applied = { patched: 0, refetched: 0, untouched: 0, fallback: false, skipped: 0 };
  coalescer.invalidate(roots.activity); // every write is an activity (ADR 0011): history panels stay live
  // A single sign-on is recorded in the history (ADR 0022) but changes nothing any other screen shows.
  if (event?.action === "signed_in") return applied;
  const targets = entityInvalidates[event?.entity];
  if (!targets) {
    applied.fallback = true;
    void invalidateLive(queryClient);
    return applied;
  }
  const isAggregate = (root: readonly string[]) => AGGREGATE_ROOTS.some((a) => JSON.stringify(a) === JSON.stringify(root));
  const precise = event.entity === "timetable_session" && Array.isArray(event.sessions);
  const dates = touchedDates(event);
  const rows = rowDetails(event);
  const schedule = precise ? null : scheduleOf(event);
  let groupPatch: Promise<void> | null = null;
  for (const root of targets) {
    if (schedule !== null) {
      applySchedule(queryClient, root, schedule, coalescer, applied);
      continue;
    }
    if (precise && JSON.stringify(root) === JSON.stringify(roots.timetables)) {
      // Lists are patched below; the other timetable screens (conflicts, proposals) are aggregates,
      // refetched only when the change may concern them (conflictsConcerned).
      for (const query of queryClient.getQueryCache().findAll({ queryKey: roots.timetables })) {
        if (query.queryKey[1] === "list") continue;
        if (dates !== null && query.queryKey[1] === "conflicts" && !conflictsConcerned(queryClient, query.queryKey, event)) applied.skipped += 1;
        else coalescer.invalidate(query.queryKey);
      }
      continue;
    }
    if (rows !== null && SESSION_DECIDED.some((r) => JSON.stringify(r) === JSON.stringify(root))) {
      // Each loaded query decides from the rows before and after; block group lists and details fetch
      // just the groups whose count changed (see the module comment).
      const isGroupRow = (key: readonly unknown[]) => key[0] === roots.blockGroups[0] && (key[1] === "list" || (key[1] === "detail" && key.length === 3));
      for (const query of queryClient.getQueryCache().findAll({ queryKey: root })) {
        if (isGroupRow(query.queryKey)) continue;
        if (sessionConcerns(query.queryKey, rows, query.state.data)) coalescer.invalidate(query.queryKey);
        else applied.skipped += 1;
      }
      if (JSON.stringify(root) === JSON.stringify(roots.blockGroups)) {
        const changed = countChangedGroups(rows);
        const loaded = queryClient.getQueryCache().findAll({ queryKey: root, predicate: (q) => isGroupRow(q.queryKey) && q.state.data !== undefined });
        if (changed.length === 0) applied.skipped += loaded.length;
        else if (loaded.length > 0) groupPatch = patchBlockGroups(queryClient, changed, fetchGroup, applied, coalescer);
      }
      continue;
    }
    if (dates !== null && rows !== null && JSON.stringify(root) === JSON.stringify(roots.dashboard)) {
      // A session change concerns a dashboard panel only when a date it touched (before or after) is in
      // the panel's span: a past session's room costs the dashboard nothing (ADR 0025); the stats and
      // the teacher workload (sums of hours) only when it may change a sum (ADR 0031).
      const sums = hoursTouched(rows);
      for (const query of queryClient.getQueryCache().findAll({ queryKey: roots.dashboard })) {
        const sumsOnly = query.queryKey[1] === "stats" || query.queryKey[1] === "teacher-workload";
        if (touchesSpan(dates, dashboardSpan(query.queryKey)) && (sums || !sumsOnly)) coalescer.invalidate(query.queryKey);
        else applied.skipped += 1;
      }
      continue;
    }
    if (isAggregate(root)) coalescer.invalidate(root);
    else void invalidateLive(queryClient, { queryKey: root });
  }
  if (precise) await patchTimetableLists(queryClient, event, fetchRows, applied);
  else applied.fallback = event.entity === "timetable_session" && schedule === null;
  if (groupPatch) await groupPatch;
  return applied;
}

/**
 * A schedule generated or cleared (ADR 0033), for the queries under `root`: the timetable lists it may
 * change refetch at once, the aggregates it may change through the coalescer (spread, at most once a
 * second), the others stay.
 */
function applySchedule(queryClient: QueryClient, root: readonly string[], schedule: Schedule, coalescer: Coalescer, applied: Applied) {
  const isRoot = (r: readonly string[]) => JSON.stringify(r) === JSON.stringify(root);
  const cache = queryClient.getQueryCache();
  if (isRoot(roots.timetables)) {
    for (const query of cache.findAll({ queryKey: roots.timetables })) {
      const [, part, filters] = query.queryKey as [string, string, ListFilters | undefined];
      const data = part === "list" ? query.state.data : queryClient.getQueryData([...roots.timetables, "list", filters ?? {}]);
      if ((part === "list" || part === "conflicts") && !scheduleConcernsList(filters ?? {}, data, schedule)) {
        if (part === "list") applied.untouched += 1;
        else applied.skipped += 1;
      } else if (part === "list") {
        applied.refetched += 1;
        void invalidateLive(queryClient, { queryKey: query.queryKey, exact: true });
      } else coalescer.invalidate(query.queryKey);
    }
    return;
  }
  if (isRoot(roots.dashboard)) {
    // Every sum of hours may change (rows created or deleted): a panel refetches when a date is in its span.
    for (const query of cache.findAll({ queryKey: roots.dashboard })) {
      if (touchesSpan(schedule.dates, dashboardSpan(query.queryKey))) coalescer.invalidate(query.queryKey);
      else applied.skipped += 1;
    }
    return;
  }
  if (!SESSION_DECIDED.some(isRoot)) {
    coalescer.invalidate(root);
    return;
  }
  for (const query of cache.findAll({ queryKey: root })) {
    if (scheduleConcerns(query.queryKey, schedule, query.state.data)) coalescer.invalidate(query.queryKey);
    else applied.skipped += 1;
  }
}
