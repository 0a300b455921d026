/**
 * A change costs what changed (docs/adr/0008): what a change event refetches.
 *
 * - Timetable lists (`[...roots.timetables, "list", filters]`): a session event names the rows it wrote
 *   (`sessions: [{id, blockGroupId, teacherId, room, date}]`). A loaded list that shows none of the ids and
 *   whose filters match none of the written rows does nothing (no request). A list that shows or should
 *   show some fetches just those rows (`GET /api/timetables?ids=`) and patches its cache: rows that still
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
 * - Anything it cannot decide (no row details: a delete or a very large write; an entity it does not
 *   know) falls back to invalidating what `entityInvalidates` names. A seq gap or a reconnect still
 *   refetches everything (lib/socket.ts).
 */
import type { InvalidateQueryFilters, QueryClient } from "@tanstack/react-query";
import { client } from "./api";
import type { components } from "./api-schema";
import { entityInvalidates, roots } from "./queryKeys";

type Session = components["schemas"]["SessionOut"];

export interface SessionDetail {
  id: string;
  blockGroupId: string;
  teacherId: string | null;
  room?: string;
  roomId?: string | null;
  date: string | null;
}

export interface LiveEvent {
  entity: string;
  action?: string;
  ids: string[];
  seq?: number;
  sessions?: SessionDetail[] | null;
  /** The same rows before the write (ADR 0025); absent from older servers and for writes without details. */
  before?: SessionDetail[] | null;
}

/** Every date a session event touches, before and after the write, or null when the event cannot say. */
export function touchedDates(event: LiveEvent): string[] | null {
  if (event?.entity !== "timetable_session" || !Array.isArray(event.sessions) || !Array.isArray(event.before)) return null;
  const dates = [...event.sessions, ...event.before].map((d) => d.date);
  return dates.every((d): d is string => typeof d === "string") ? dates : null;
}

const isoDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
const plusDays = (d: Date, n: number) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);

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
    const monday = plusDays(today, -((today.getDay() + 6) % 7));
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

/** Invalidates a key at once, then at most once per `intervalMs` while calls keep coming (trailing). */
export function createCoalescer(queryClient: QueryClient, intervalMs = COALESCE_MS) {
  const state = new Map<string, { pending: boolean }>();
  const fire = (key: readonly unknown[]) => void invalidateLive(queryClient, { queryKey: key });
  return {
    invalidate(key: readonly unknown[]) {
      const id = JSON.stringify(key);
      const current = state.get(id);
      if (current) {
        current.pending = true;
        return;
      }
      fire(key);
      const entry = { pending: false };
      state.set(id, entry);
      const tick = () => {
        if (entry.pending) {
          entry.pending = false;
          fire(key);
          setTimeout(tick, intervalMs);
        } else state.delete(id);
      };
      setTimeout(tick, intervalMs);
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
  queued: { ids: Set<string>; waiters: (() => void)[] } | null;
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
): Promise<void> {
  const map = listQueues.get(queryClient) ?? new Map<string, ListQueue>();
  listQueues.set(queryClient, map);
  const hash = query.queryHash;
  const q = map.get(hash) ?? { running: false, queued: null };
  map.set(hash, q);
  const run = (runIds: string[], first: Promise<Session[]> | null): Promise<void> => {
    q.running = true;
    return patchList(queryClient, query, runIds, fetchRows, applied, first).finally(() => {
      const next = q.queued;
      q.queued = null;
      if (next) {
        void run([...next.ids], null).finally(() => {
          for (const done of next.waiters) done();
        });
      } else {
        q.running = false;
        map.delete(hash);
      }
    });
  };
  if (!q.running) return run(ids, shared());
  if (!q.queued) q.queued = { ids: new Set(), waiters: [] };
  const queued = q.queued;
  for (const id of ids) queued.ids.add(id);
  return new Promise((resolve) => queued.waiters.push(resolve));
}

async function patchTimetableLists(queryClient: QueryClient, event: LiveEvent, fetchRows: FetchRows, applied: Applied) {
  const details = new Map((event.sessions ?? []).map((d) => [d.id, d]));
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
    work.push(schedulePatch(queryClient, query, relevant, fetchRows, applied, shared));
  }
  await Promise.all(work);
}

/**
 * Applies one in-order change event to the cache (see the module comment). Resolves when the patches are
 * in; aggregate refetches are started (and coalesced), not awaited.
 */
export async function applyChange(queryClient: QueryClient, event: LiveEvent, coalescer: Coalescer, fetchRows: FetchRows = fetchRowsByIds): Promise<Applied> {
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
  for (const root of targets) {
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
    if (dates !== null && (JSON.stringify(root) === JSON.stringify(roots.blockGroups) || JSON.stringify(root) === JSON.stringify(roots.teachers))) {
      // A session change leaves block group and teacher *choices* (codes and names) as they were; the
      // lists with hours refetch as aggregates.
      for (const query of queryClient.getQueryCache().findAll({ queryKey: root })) {
        if (query.queryKey[1] === "choices") applied.skipped += 1;
        else coalescer.invalidate(query.queryKey);
      }
      continue;
    }
    if (dates !== null && JSON.stringify(root) === JSON.stringify(roots.dashboard)) {
      // A session change concerns a dashboard panel only when a date it touched (before or after) is in
      // the panel's span: a past session's room costs the dashboard nothing (ADR 0025).
      for (const query of queryClient.getQueryCache().findAll({ queryKey: roots.dashboard })) {
        if (touchesSpan(dates, dashboardSpan(query.queryKey))) coalescer.invalidate(query.queryKey);
        else applied.skipped += 1;
      }
      continue;
    }
    if (isAggregate(root)) coalescer.invalidate(root);
    else void invalidateLive(queryClient, { queryKey: root });
  }
  if (precise) await patchTimetableLists(queryClient, event, fetchRows, applied);
  else applied.fallback = event.entity === "timetable_session";
  return applied;
}
