/**
 * A change costs what changed (issue 15, docs/adr/0008): what a change event refetches.
 *
 * - Timetable lists (`[...roots.timetables, "list", filters]`): a session event names the rows it wrote
 *   (`sessions: [{id, blockGroupId, teacherId, room, date}]`). A loaded list that shows none of the ids and
 *   whose filters match none of the written rows does nothing (no request). A list that shows or should
 *   show some fetches just those rows (`GET /api/timetables?ids=`) and patches its cache: rows that still
 *   match are replaced or inserted in date order, the others removed. When a fetched or replaced row has
 *   conflicts, neighbours' conflict flags may change too, so that one list is refetched whole.
 * - Aggregate screens (dashboard, reports, allocation grid, block group and teacher hours, conflict lists,
 *   auto-allocation proposals) refetch through a coalescer: at once for the first change, then at most
 *   once every 2 s while changes keep coming (trailing).
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
}

interface ListFilters {
  blockGroupId?: string | null;
  teacherId?: string | null;
  roomId?: string | null;
  hidePast?: boolean;
}

export const COALESCE_MS = 2000;

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
}

async function patchTimetableLists(queryClient: QueryClient, event: LiveEvent, fetchRows: FetchRows, applied: Applied) {
  const details = new Map((event.sessions ?? []).map((d) => [d.id, d]));
  const today = localToday();
  const fetches = new Map<string, Promise<Session[]>>();
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
    if (!fetches.has(key)) fetches.set(key, fetchRows(relevant));
    work.push(
      fetches.get(key)!.then(
        (rows) => {
          const before = data.filter((r) => relevant.includes(r.id));
          if ([...before, ...rows].some((r) => (r.conflicts ?? []).length > 0)) {
            applied.refetched += 1;
            void invalidateLive(queryClient, { queryKey: query.queryKey, exact: true });
            return;
          }
          const keep = rows.filter((r) =>
            matches(filters, { blockGroupId: r.blockGroupId, teacherId: r.teacherId ?? null, roomId: r.roomId ?? null, date: r.actualDate }, today),
          );
          const next = [...data.filter((r) => !relevant.includes(r.id)), ...keep].sort(byDateAndTime);
          queryClient.setQueryData(query.queryKey, next);
          applied.patched += 1;
        },
        () => {
          applied.refetched += 1;
          void invalidateLive(queryClient, { queryKey: query.queryKey, exact: true });
        },
      ),
    );
  }
  await Promise.all(work);
}

/**
 * Applies one in-order change event to the cache (see the module comment). Resolves when the patches are
 * in; aggregate refetches are started (and coalesced), not awaited.
 */
export async function applyChange(queryClient: QueryClient, event: LiveEvent, coalescer: Coalescer, fetchRows: FetchRows = fetchRowsByIds): Promise<Applied> {
  const applied: Applied = { patched: 0, refetched: 0, untouched: 0, fallback: false };
  coalescer.invalidate(roots.activity); // every write is an activity (issue 16): history panels stay live
  // A single sign-on is recorded in the history (issue 21) but changes nothing any other screen shows.
  if (event?.action === "signed_in") return applied;
  const targets = entityInvalidates[event?.entity];
  if (!targets) {
    applied.fallback = true;
    void invalidateLive(queryClient);
    return applied;
  }
  const isAggregate = (root: readonly string[]) => AGGREGATE_ROOTS.some((a) => JSON.stringify(a) === JSON.stringify(root));
  const precise = event.entity === "timetable_session" && Array.isArray(event.sessions);
  for (const root of targets) {
    if (precise && JSON.stringify(root) === JSON.stringify(roots.timetables)) {
      // Lists are patched below; the other timetable screens (conflicts, proposals) are aggregates.
      for (const query of queryClient.getQueryCache().findAll({ queryKey: roots.timetables })) {
        if (query.queryKey[1] !== "list") coalescer.invalidate(query.queryKey);
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
