import { QueryClient } from "@tanstack/react-query";
import { applyChange, createCoalescer, type LiveEvent } from "./liveTargets";
import { roots } from "./queryKeys";

const G1 = "g1";
const G2 = "g2";
const T1 = "t1";

function row(id: string, blockGroupId: string, date: string, extra: Record<string, unknown> = {}) {
  return { id, blockGroupId, teacherId: null as string | null, actualDate: date, startTime: "09:00:00", conflicts: [] as string[], updatedAt: "", ...extra };
}
const listKey = (blockGroupId: string | null, teacherId: string | null = null) => [...roots.timetables, "list", { blockGroupId, teacherId, hidePast: false }];

function setup() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const invalidate = vi.spyOn(queryClient, "invalidateQueries");
  const fetched: string[][] = [];
  let answer: ReturnType<typeof row>[] = [];
  const fetchRows = async (ids: string[]) => {
    fetched.push(ids);
    return answer.filter((r) => ids.includes(r.id)) as never;
  };
  return { queryClient, invalidate, fetched, fetchRows, setAnswer: (rows: ReturnType<typeof row>[]) => (answer = rows) };
}

const sessionEvent = (ids: string[], sessions: LiveEvent["sessions"]): LiveEvent => ({ entity: "timetable_session", action: "allocated", ids, sessions });

test("a list showing none of the written rows and matching none of them makes no request", async () => {
  const { queryClient, invalidate, fetched, fetchRows } = setup();
  queryClient.setQueryData(listKey(G1), [row("a", G1, "2026-03-02")]);
  const applied = await applyChange(
    queryClient,
    sessionEvent(["z"], [{ id: "z", blockGroupId: G2, teacherId: T1, date: "2026-03-03" }]),
    createCoalescer(queryClient),
    fetchRows,
  );
  expect(applied).toMatchObject({ patched: 0, refetched: 0, untouched: 1, fallback: false });
  expect(fetched).toEqual([]);
  expect(invalidate.mock.calls.some((c) => JSON.stringify(c[0]?.queryKey) === JSON.stringify(listKey(G1)))).toBe(false);
  expect(invalidate.mock.calls.some((c) => c[0]?.queryKey && JSON.stringify(c[0].queryKey) === JSON.stringify(roots.timetables))).toBe(false);
});

test("a list showing a written row fetches just that row by id and patches its cache", async () => {
  const { queryClient, fetched, fetchRows, setAnswer } = setup();
  queryClient.setQueryData(listKey(G1), [row("a", G1, "2026-03-02"), row("b", G1, "2026-03-04")]);
  setAnswer([row("b", G1, "2026-03-04", { teacherId: T1 })]);
  const applied = await applyChange(
    queryClient,
    sessionEvent(["b"], [{ id: "b", blockGroupId: G1, teacherId: T1, date: "2026-03-04" }]),
    createCoalescer(queryClient),
    fetchRows,
  );
  expect(applied.patched).toBe(1);
  expect(fetched).toEqual([["b"]]);
  const data = queryClient.getQueryData(listKey(G1)) as ReturnType<typeof row>[];
  expect(data.map((r) => [r.id, r.teacherId])).toEqual([
    ["a", null],
    ["b", T1],
  ]);
});

test("a created row that matches a list is inserted in date order; one that moved away is removed", async () => {
  const { queryClient, fetchRows, setAnswer } = setup();
  queryClient.setQueryData(listKey(null, T1), [row("a", G1, "2026-03-02", { teacherId: T1 }), row("c", G1, "2026-03-09", { teacherId: T1 })]);
  setAnswer([row("new", G2, "2026-03-05", { teacherId: T1 }), row("a", G1, "2026-03-02", { teacherId: "t2" })]);
  await applyChange(
    queryClient,
    sessionEvent(
      ["new", "a"],
      [
        { id: "new", blockGroupId: G2, teacherId: T1, date: "2026-03-05" },
        { id: "a", blockGroupId: G1, teacherId: "t2", date: "2026-03-02" },
      ],
    ),
    createCoalescer(queryClient),
    fetchRows,
  );
  const data = queryClient.getQueryData(listKey(null, T1)) as ReturnType<typeof row>[];
  expect(data.map((r) => r.id)).toEqual(["new", "c"]);
});

test("rows with conflicts refetch that list whole (neighbours' flags may change)", async () => {
  const { queryClient, invalidate, fetchRows, setAnswer } = setup();
  queryClient.setQueryData(listKey(G1), [row("a", G1, "2026-03-02")]);
  setAnswer([row("a", G1, "2026-03-02", { conflicts: ["teacher_double_booked"] })]);
  const applied = await applyChange(
    queryClient,
    sessionEvent(["a"], [{ id: "a", blockGroupId: G1, teacherId: T1, date: "2026-03-02" }]),
    createCoalescer(queryClient),
    fetchRows,
  );
  expect(applied.refetched).toBe(1);
  expect(invalidate.mock.calls.some((c) => JSON.stringify(c[0]?.queryKey) === JSON.stringify(listKey(G1)) && c[0]?.exact)).toBe(true);
});

test("without row details (a delete, a very large write) the lists are invalidated as before", async () => {
  const { queryClient, invalidate, fetched, fetchRows } = setup();
  queryClient.setQueryData(listKey(G1), [row("a", G1, "2026-03-02")]);
  const applied = await applyChange(queryClient, sessionEvent(["a"], null), createCoalescer(queryClient), fetchRows);
  expect(applied.fallback).toBe(true);
  expect(fetched).toEqual([]);
  expect(invalidate.mock.calls.some((c) => JSON.stringify(c[0]?.queryKey) === JSON.stringify(roots.timetables))).toBe(true);
});

test("the dashboard refetches at most once a second under a burst (first at once, then trailing)", async () => {
  vi.useFakeTimers();
  try {
    const { queryClient, invalidate, fetchRows } = setup();
    const coalescer = createCoalescer(queryClient);
    const dashboardCalls = () => invalidate.mock.calls.filter((c) => JSON.stringify(c[0]?.queryKey) === JSON.stringify(roots.dashboard)).length;
    for (let i = 0; i < 20; i++) {
      await applyChange(queryClient, sessionEvent([`s${i}`], [{ id: `s${i}`, blockGroupId: G1, teacherId: T1, date: "2026-03-02" }]), coalescer, fetchRows);
      vi.advanceTimersByTime(45); // 20 changes within 0.9 s
    }
    expect(dashboardCalls()).toBe(1);
    vi.advanceTimersByTime(1000);
    expect(dashboardCalls()).toBe(2); // the trailing refetch
    vi.advanceTimersByTime(10000);
    expect(dashboardCalls()).toBe(2);
  } finally {
    vi.useRealTimers();
  }
});

test("a change arriving during a screen's first fetch restarts that fetch, so the answer includes it", async () => {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  let version = 1;
  const reads: number[] = [];
  const releases: (() => void)[] = [];
  const queryFn = () => {
    const seen = version; // what the database held when this read ran
    reads.push(seen);
    return new Promise<string>((resolve) => releases.push(() => resolve(`v${seen}`)));
  };
  const { QueryObserver } = await import("@tanstack/react-query");
  const observer = new QueryObserver(queryClient, { queryKey: ["courses"], queryFn });
  const results: (string | undefined)[] = [];
  const unsubscribe = observer.subscribe((r) => results.push(r.data));
  await vi.waitFor(() => expect(reads).toEqual([1]));
  version = 2; // a change commits while the first read is still on its way
  await applyChange(queryClient, { entity: "course", action: "created", ids: ["c"] }, createCoalescer(queryClient));
  await vi.waitFor(() => expect(reads).toEqual([1, 2]));
  for (const release of releases) release();
  await vi.waitFor(() => expect(queryClient.getQueryData(["courses"])).toBe("v2"));
  expect(results.filter(Boolean)).not.toContain("v1");
  unsubscribe();
});

test("a sign-in (single sign-on, recorded in the history) refreshes only the history", async () => {
  const { queryClient, invalidate, fetchRows } = setup();
  queryClient.setQueryData(roots.user, { user: { id: "me" } });
  queryClient.setQueryData(roots.adminUsers, []);
  const applied = await applyChange(queryClient, { entity: "user", action: "signed_in", ids: ["u2"] }, createCoalescer(queryClient), fetchRows);
  expect(applied).toMatchObject({ patched: 0, refetched: 0, fallback: false });
  expect(invalidate.mock.calls.map((c) => JSON.stringify(c[0]?.queryKey))).toEqual([JSON.stringify(roots.activity)]);
});

/**
 * A server whose `?ids=` reads are held until released, each answering what the server held when the read
 * started (as PostgreSQL does), so two overlapping patches can be resolved in any order.
 */
function slowServer(initial: ReturnType<typeof row>[]) {
  const state = new Map(initial.map((r) => [r.id, r]));
  const pending: { ids: string[]; release: () => void }[] = [];
  const fetchRows = (ids: string[]) => {
    const snapshot = ids.map((id) => state.get(id)).filter((r): r is ReturnType<typeof row> => r !== undefined);
    return new Promise<never>((resolve) => pending.push({ ids, release: () => resolve(snapshot.map((r) => ({ ...r })) as never) }));
  };
  let clock = 0;
  const write = (id: string, fields: Record<string, unknown>) => {
    clock += 1;
    state.set(id, { ...state.get(id)!, ...fields, updatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, clock)).toISOString() });
  };
  return { state, pending, fetchRows, write };
}
const stamp = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const detail = (id: string, blockGroupId = G1) => ({ id, blockGroupId, teacherId: null, date: "2026-03-02" });

test("two overlapping patches of one row resolving out of order leave the later row, not the earlier", async () => {
  const queryClient = new QueryClient();
  const server = slowServer([row("b", G1, "2026-03-02", { room: "R0", updatedAt: stamp(0) })]);
  queryClient.setQueryData(listKey(G1), [...server.state.values()]);
  const coalescer = createCoalescer(queryClient);
  server.write("b", { room: "R1" });
  const first = applyChange(queryClient, sessionEvent(["b"], [detail("b")]), coalescer, server.fetchRows);
  server.write("b", { room: "R2" });
  const second = applyChange(queryClient, sessionEvent(["b"], [detail("b")]), coalescer, server.fetchRows);
  // The old code read both at once; the second (R2) answering first and the first (R1) last left R1.
  // Serialised, the second event's read starts only once the first patch is in the cache.
  expect(server.pending.length).toBe(1);
  server.pending.shift()!.release();
  await vi.waitFor(() => expect(server.pending.length).toBe(1));
  expect((queryClient.getQueryData(listKey(G1)) as { room?: string }[])[0].room).toBe("R1");
  server.pending.shift()!.release();
  await Promise.all([first, second]);
  const data = queryClient.getQueryData(listKey(G1)) as ReturnType<typeof row>[];
  expect(data.map((r) => [r.id, (r as { room?: string }).room])).toEqual([["b", "R2"]]);
});

test("a patch writes into the cache as it is when its fetch returns, not into a copy taken before", async () => {
  const queryClient = new QueryClient();
  const server = slowServer([row("a", G1, "2026-03-02", { room: "A0", updatedAt: stamp(0) }), row("b", G1, "2026-03-03", { room: "B0", updatedAt: stamp(0) })]);
  queryClient.setQueryData(listKey(G1), [...server.state.values()]);
  queryClient.setQueryData(listKey(null, T1), []); // a second list, so both lists' queues are exercised
  const coalescer = createCoalescer(queryClient);
  server.write("a", { room: "A1" });
  const one = applyChange(queryClient, sessionEvent(["a"], [detail("a")]), coalescer, server.fetchRows);
  server.write("b", { room: "B1" });
  const two = applyChange(queryClient, sessionEvent(["b"], [detail("b")]), coalescer, server.fetchRows);
  // The old code fetched both at once and wrote back lists built from the copy each took before its
  // await: releasing b then a put b's old row back. Serialised, only a's read is out now.
  expect(server.pending.map((p) => p.ids)).toEqual([["a"]]);
  server.pending.shift()!.release();
  await vi.waitFor(() => expect(server.pending.map((p) => p.ids)).toEqual([["b"]]));
  server.pending.shift()!.release();
  await Promise.all([one, two]);
  const data = queryClient.getQueryData(listKey(G1)) as ReturnType<typeof row>[];
  expect(data.map((r) => (r as { room?: string }).room)).toEqual(["A1", "B1"]);
});

test("events arriving while a list's patch runs are merged into one next patch", async () => {
  const queryClient = new QueryClient();
  const server = slowServer(["a", "b", "c"].map((id) => row(id, G1, "2026-03-02", { room: "0", updatedAt: stamp(0) })));
  queryClient.setQueryData(listKey(G1), [...server.state.values()]);
  const coalescer = createCoalescer(queryClient);
  const runs = ["a", "b", "c", "a"].map((id) => {
    server.write(id, { room: `${id}!` });
    return applyChange(queryClient, sessionEvent([id], [detail(id)]), coalescer, server.fetchRows);
  });
  expect(server.pending.map((p) => p.ids)).toEqual([["a"]]);
  server.pending.shift()!.release();
  await vi.waitFor(() => expect(server.pending.map((p) => p.ids)).toEqual([["b", "c", "a"]]));
  server.pending.shift()!.release();
  await Promise.all(runs);
  const data = queryClient.getQueryData(listKey(G1)) as ReturnType<typeof row>[];
  expect(data.map((r) => (r as { room?: string }).room)).toEqual(["a!", "b!", "c!"]);
});

describe("rows carried by the event (ADR 0032)", () => {
  test("a list showing a written row takes it from the event: no request", async () => {
    const { queryClient, fetched, fetchRows } = setup();
    queryClient.setQueryData(listKey(G1), [row("a", G1, "2026-03-02"), row("b", G1, "2026-03-04", { updatedAt: stamp(1) })]);
    const written = row("b", G1, "2026-03-04", { teacherId: T1, updatedAt: stamp(2) });
    const applied = await applyChange(
      queryClient,
      { ...sessionEvent(["b"], [{ id: "b", blockGroupId: G1, teacherId: T1, date: "2026-03-04" }]), rows: [written] },
      createCoalescer(queryClient),
      fetchRows,
    );
    expect(applied.patched).toBe(1);
    expect(fetched).toEqual([]);
    const data = queryClient.getQueryData(listKey(G1)) as ReturnType<typeof row>[];
    expect(data.map((r) => [r.id, r.teacherId])).toEqual([
      ["a", null],
      ["b", T1],
    ]);
  });

  test("a carried row older than the cached one is dropped; a named row it did not carry is asked for", async () => {
    const { queryClient, fetched, fetchRows, setAnswer } = setup();
    queryClient.setQueryData(listKey(G1), [row("a", G1, "2026-03-02", { room: "new", updatedAt: stamp(5) }), row("b", G1, "2026-03-03")]);
    setAnswer([row("b", G1, "2026-03-03", { room: "fetched" })]);
    await applyChange(
      queryClient,
      { ...sessionEvent(["a", "b"], [detail("a"), detail("b")]), rows: [row("a", G1, "2026-03-02", { room: "old", updatedAt: stamp(3) })] },
      createCoalescer(queryClient),
      fetchRows,
    );
    expect(fetched).toEqual([["b"]]);
    const data = queryClient.getQueryData(listKey(G1)) as ReturnType<typeof row>[];
    expect(data.map((r) => (r as { room?: string }).room)).toEqual(["new", "fetched"]);
  });

  test("events queued behind a patch keep the latest carried copy, and ask for a row a later event did not carry", async () => {
    const queryClient = new QueryClient();
    const server = slowServer([
      row("a", G1, "2026-03-02", { room: "A0", updatedAt: stamp(0) }),
      row("b", G1, "2026-03-02", { room: "B0", updatedAt: stamp(0) }),
    ]);
    queryClient.setQueryData(listKey(G1), [...server.state.values()]);
    const coalescer = createCoalescer(queryClient);
    server.write("a", { room: "A1" });
    const first = applyChange(queryClient, sessionEvent(["a"], [detail("a")]), coalescer, server.fetchRows); // no rows: fetched
    server.write("a", { room: "A2" });
    server.write("b", { room: "B1" });
    const carried = [{ ...server.state.get("a")! }, { ...server.state.get("b")! }];
    const second = applyChange(queryClient, { ...sessionEvent(["a", "b"], [detail("a"), detail("b")]), rows: carried }, coalescer, server.fetchRows);
    server.write("b", { room: "B2" });
    const third = applyChange(queryClient, sessionEvent(["b"], [detail("b")]), coalescer, server.fetchRows); // b not carried
    expect(server.pending.map((p) => p.ids)).toEqual([["a"]]);
    server.pending.shift()!.release();
    await vi.waitFor(() => expect(server.pending.length).toBe(1));
    expect(server.pending[0].ids).toEqual(["b"]); // a from the second event's rows, b asked for (the third named it)
    server.pending.shift()!.release();
    await Promise.all([first, second, third]);
    const data = queryClient.getQueryData(listKey(G1)) as ReturnType<typeof row>[];
    expect(data.map((r) => (r as { room?: string }).room)).toEqual(["A2", "B2"]);
  });
});

test("a fetched row older than the cached one (updatedAt) is dropped, and so is its removal", async () => {
  const { mergeRows } = await import("./liveTargets");
  const cached = [row("a", G1, "2026-03-02", { room: "new", updatedAt: stamp(5) })] as never[];
  const older = [row("a", G2, "2026-03-02", { room: "old", updatedAt: stamp(3) })] as never[];
  expect(mergeRows(cached, ["a"], older, { blockGroupId: G1 }, "2026-01-01")).toEqual(cached);
  const newer = [row("a", G2, "2026-03-02", { room: "moved", updatedAt: stamp(6) })] as never[];
  expect(mergeRows(cached, ["a"], newer, { blockGroupId: G1 }, "2026-01-01")).toEqual([]);
});

test("a whole refetch landing while a patch's read is out makes the patch read again", async () => {
  const queryClient = new QueryClient();
  const server = slowServer([row("a", G1, "2026-03-02", { room: "A0", updatedAt: stamp(0) })]);
  queryClient.setQueryData(listKey(G1), [...server.state.values()]);
  server.write("a", { room: "A1" });
  const run = applyChange(queryClient, sessionEvent(["a"], [detail("a")]), createCoalescer(queryClient), server.fetchRows);
  server.write("a", { room: "A2" });
  queryClient.setQueryData(listKey(G1), [{ ...server.state.get("a")! }]); // a whole read lands first (A2)
  server.pending.shift()!.release(); // the patch's read (A1) comes back after it: not applied as is
  await vi.waitFor(() => expect(server.pending.length).toBe(1));
  server.pending.shift()!.release();
  await run;
  const data = queryClient.getQueryData(listKey(G1)) as ReturnType<typeof row>[];
  expect(data.map((r) => (r as { room?: string }).room)).toEqual(["A2"]);
});

describe("a change costs only the dashboard panels it concerns (ADR 0025)", () => {
  const now = new Date(2026, 2, 4, 10); // Wednesday 4 March 2026: the week is 2..8 March
  const at = (date: string, before: string | null) => ({
    entity: "timetable_session" as const,
    action: "updated" as const,
    ids: ["s"],
    sessions: [{ id: "s", blockGroupId: G1, teacherId: null, date }],
    before: before === null ? [] : [{ id: "s", blockGroupId: G1, teacherId: null, date: before }],
  });

  test("each panel's span: this week, the next 7 days, the chosen range", async () => {
    const { dashboardSpan } = await import("./liveTargets");
    expect(dashboardSpan([...roots.dashboard, "stats"], now)).toEqual(["2026-03-01", "2026-03-09"]);
    expect(dashboardSpan([...roots.dashboard, "teacher-workload"], now)).toEqual(["2026-03-01", "2026-03-09"]);
    expect(dashboardSpan([...roots.dashboard, "upcoming-sessions"], now)).toEqual(["2026-03-03", "2026-03-11"]);
    expect(dashboardSpan([...roots.dashboard, "teacher-allocations", { start: "2026-04-06", end: "2026-04-12" }], now)).toEqual(["2026-04-05", "2026-04-13"]);
    expect(dashboardSpan([...roots.dashboard, "something-new"], now)).toBeNull();
  });

  test("a past session's room makes no dashboard request; a session moved into this week does", async () => {
    vi.useFakeTimers({ now, toFake: ["Date"] });
    try {
      const { queryClient, invalidate, fetchRows } = setup();
      for (const part of ["stats", "teacher-workload", "upcoming-sessions"]) queryClient.setQueryData([...roots.dashboard, part], {});
      const dashboardCalls = () => invalidate.mock.calls.filter((c) => JSON.stringify(c[0]?.queryKey ?? []).startsWith('["dashboard"')).length;
      const past = await applyChange(queryClient, at("2025-11-03", "2025-11-03"), createCoalescer(queryClient), fetchRows);
      expect(past.skipped).toBe(3);
      expect(dashboardCalls()).toBe(0);
      const created = await applyChange(queryClient, at("2026-05-04", null), createCoalescer(queryClient), fetchRows);
      expect(created.skipped).toBe(3);
      const movedIn = await applyChange(queryClient, at("2026-03-06", "2025-11-03"), createCoalescer(queryClient), fetchRows);
      expect(movedIn.skipped).toBe(0);
      expect(dashboardCalls()).toBe(3);
      invalidate.mockClear();
      const movedOut = await applyChange(queryClient, at("2026-06-01", "2026-03-10"), createCoalescer(queryClient), fetchRows);
      expect(movedOut.skipped).toBe(2); // the week's panels: no; upcoming (3..11 March): yes
      expect(invalidate.mock.calls.map((c) => c[0]?.queryKey)).toContainEqual([...roots.dashboard, "upcoming-sessions"]);
      invalidate.mockClear();
      const noBefore = await applyChange(queryClient, { ...at("2025-11-03", null), before: undefined }, createCoalescer(queryClient), fetchRows);
      expect(noBefore.skipped).toBe(0); // an event that cannot say what it was before concerns every panel
    } finally {
      vi.useRealTimers();
    }
  });

  test("a room changed this week refreshes the panels that show rooms, not the sums of hours (ADR 0031)", async () => {
    vi.useFakeTimers({ now, toFake: ["Date"] });
    try {
      const { queryClient, invalidate, fetchRows } = setup();
      for (const part of ["stats", "teacher-workload", "upcoming-sessions"]) queryClient.setQueryData([...roots.dashboard, part], {});
      const full = { id: "s", blockGroupId: G1, teacherId: T1, date: "2026-03-05", unitId: "u", hours: 3, status: "scheduled", room: "A1", roomId: null };
      const keys = () => invalidate.mock.calls.map((c) => JSON.stringify(c[0]?.queryKey));
      const room = await applyChange(
        queryClient,
        { ...sessionEvent(["s"], [{ ...full, room: "B2" }]), before: [full] },
        createCoalescer(queryClient),
        fetchRows,
      );
      expect(room.skipped).toBe(2);
      expect(keys()).toContain(JSON.stringify([...roots.dashboard, "upcoming-sessions"]));
      expect(keys()).not.toContain(JSON.stringify([...roots.dashboard, "stats"]));
      expect(keys()).not.toContain(JSON.stringify([...roots.dashboard, "teacher-workload"]));
      for (const change of [{ hours: 2 }, { status: "cancelled" }, { teacherId: null }, { unitId: "u2" }, { date: "2026-03-06" }]) {
        invalidate.mockClear();
        const other = await applyChange(
          queryClient,
          { ...sessionEvent(["s"], [{ ...full, ...change }]), before: [full] },
          createCoalescer(queryClient),
          fetchRows,
        );
        expect(other.skipped, JSON.stringify(change)).toBe(0);
        expect(keys()).toContain(JSON.stringify([...roots.dashboard, "stats"]));
      }
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("hoursTouched: whether a change may change a sum of hours (ADR 0031)", () => {
  const full = { id: "s", blockGroupId: G1, teacherId: T1, date: "2026-03-05", unitId: "u", hours: 3, status: "scheduled", room: "A1", roomId: null };
  test("a room alone does not; any counted field, a created or a removed row, or a field not sent does", async () => {
    const { hoursTouched } = await import("./liveTargets");
    expect(hoursTouched({ sessions: [{ ...full, room: "B2", roomId: "r" }], before: [full] })).toBe(false);
    expect(hoursTouched({ sessions: [full], before: [full] })).toBe(false);
    for (const change of [{ hours: 2.5 }, { status: "cancelled" }, { teacherId: "t2" }, { blockGroupId: G2 }, { unitId: "u2" }, { date: null }]) {
      expect(hoursTouched({ sessions: [{ ...full, ...change }], before: [full] }), JSON.stringify(change)).toBe(true);
    }
    expect(hoursTouched({ sessions: [full], before: [] })).toBe(true); // created
    expect(hoursTouched({ sessions: [], before: [full] })).toBe(true); // removed
    const { hours: _h, ...withoutHours } = full;
    expect(hoursTouched({ sessions: [withoutHours], before: [withoutHours] })).toBe(true); // not sent: cannot say
  });
});

describe("createSpreadRefetch: a random first delay, then at most once per interval (ADR 0031)", () => {
  test("calls before the first run are answered by it; calls after it make one trailing run", async () => {
    const { createSpreadRefetch } = await import("./liveTargets");
    vi.useFakeTimers();
    try {
      const fire = vi.fn();
      const idle = vi.fn();
      const refetch = createSpreadRefetch(fire, { intervalMs: 1000, spreadMs: 800, random: () => 0.5, onIdle: idle });
      refetch();
      refetch();
      vi.advanceTimersByTime(399);
      expect(fire).toHaveBeenCalledTimes(0);
      vi.advanceTimersByTime(1);
      expect(fire).toHaveBeenCalledTimes(1); // at 400 ms, for both calls
      refetch();
      refetch();
      vi.advanceTimersByTime(999);
      expect(fire).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(1);
      expect(fire).toHaveBeenCalledTimes(2); // one trailing run for the two calls of the interval
      vi.advanceTimersByTime(1000);
      expect(fire).toHaveBeenCalledTimes(2);
      expect(idle).toHaveBeenCalledTimes(1);
      refetch(); // idle again: a new random delay
      vi.advanceTimersByTime(400);
      expect(fire).toHaveBeenCalledTimes(3);
      const atOnce = vi.fn();
      createSpreadRefetch(atOnce)();
      expect(atOnce).toHaveBeenCalledTimes(1); // no spread: at once
    } finally {
      vi.useRealTimers();
    }
  });
});

test("a session change of another group on another day costs an open timetable nothing (conflicts, choices)", async () => {
  const { queryClient, invalidate, fetchRows } = setup();
  const filters = { blockGroupId: G1, teacherId: null, hidePast: false };
  queryClient.setQueryData([...roots.timetables, "list", filters], [row("a", G1, "2026-03-02")]);
  queryClient.setQueryData([...roots.timetables, "conflicts", filters], []);
  queryClient.setQueryData([...roots.blockGroups, "choices"], []);
  queryClient.setQueryData([...roots.teachers, "choices"], []);
  const elsewhere = { id: "z", blockGroupId: G2, teacherId: T1, date: "2025-10-01" };
  const applied = await applyChange(queryClient, { ...sessionEvent(["z"], [elsewhere]), before: [elsewhere] }, createCoalescer(queryClient), fetchRows);
  expect(applied).toMatchObject({ patched: 0, untouched: 1, skipped: 3 });
  const loaded = queryClient.getQueryCache().findAll();
  // No loaded query was invalidated (roots of screens not open may be, which costs no request).
  for (const call of invalidate.mock.calls) {
    const key = (call[0]?.queryKey ?? []) as unknown[];
    const hits = loaded.filter((q) => JSON.stringify(q.queryKey.slice(0, key.length)) === JSON.stringify(key));
    expect(hits.map((q) => q.queryKey)).toEqual([]);
  }
  // The same day as a shown session: its conflicts may change (a clash needs the same day).
  invalidate.mockClear();
  const sameDay = { ...elsewhere, date: "2026-03-02" };
  await applyChange(queryClient, { ...sessionEvent(["z"], [sameDay]), before: [elsewhere] }, createCoalescer(queryClient), fetchRows);
  expect(invalidate.mock.calls.map((c) => JSON.stringify(c[0]?.queryKey))).toContain(JSON.stringify([...roots.timetables, "conflicts", filters]));
});

describe("the other screens a session change may touch decide from the rows before and after (ADR 0025)", () => {
  const grid = {
    weeks: [
      { weekStart: "2026-03-02", weekEnd: "2026-03-08" },
      { weekStart: "2026-03-09", weekEnd: "2026-03-15" },
    ],
    teachers: [],
  };
  const group = (id: string, timetableCount: number) => ({ id, code: id.toUpperCase(), timetableCount, updatedAt: "" });
  const keyed = (calls: unknown[][]) => calls.map((c) => JSON.stringify((c[0] as { queryKey?: unknown })?.queryKey));

  function screens(queryClient: QueryClient) {
    queryClient.setQueryData([...roots.teachers, "list", { showInactive: false }], []);
    queryClient.setQueryData([...roots.teachers, "choices"], []);
    queryClient.setQueryData([...roots.teachers, "detail", T1], {});
    queryClient.setQueryData([...roots.teachers, "detail", T1, "delivery-summary", 2026], {});
    queryClient.setQueryData([...roots.blockGroups, "list", {}], [group(G1, 3), group(G2, 0)]);
    queryClient.setQueryData([...roots.blockGroups, "detail", G1], group(G1, 3));
    queryClient.setQueryData([...roots.blockGroups, "detail", G1, "timetabled-units"], []);
    queryClient.setQueryData([...roots.allocationGrid, 2026, 1], grid);
    queryClient.setQueryData([...roots.allocationGrid, "week", T1, "2026-03-02"], []);
    for (const part of ["teacher-workload", "scheduling-summary", "load-planning", "room-utilisation"])
      queryClient.setQueryData([...roots.reports, part, 2026], {});
    queryClient.setQueryData([...roots.reports, "block-groups-without-timetables"], [group(G2, 0)]);
  }

  test("a session of another group, teacher and year changed in place costs none of them a request", async () => {
    const { queryClient, invalidate, fetchRows } = setup();
    screens(queryClient);
    const groups: string[] = [];
    const fetchGroup = async (id: string) => {
      groups.push(id);
      return null;
    };
    const past = { id: "s", blockGroupId: G2, teacherId: "t9", room: "B2", date: "2025-10-01" };
    const applied = await applyChange(
      queryClient,
      { ...sessionEvent(["s"], [past]), before: [{ ...past, room: "B1" }] },
      createCoalescer(queryClient),
      fetchRows,
      fetchGroup,
    );
    expect(groups).toEqual([]);
    const loaded = queryClient
      .getQueryCache()
      .findAll()
      .filter((q) => q.queryKey[0] !== "timetables");
    for (const key of keyed(invalidate.mock.calls)) expect(loaded.filter((q) => JSON.stringify(q.queryKey).startsWith(key.slice(0, -1)))).toEqual([]);
    expect(applied.skipped).toBe(loaded.length);
  });

  test("a room change this term concerns the grid, the teacher's summary and the year's reports, not the teacher or group lists", async () => {
    const { queryClient, invalidate, fetchRows } = setup();
    screens(queryClient);
    const now = { id: "s", blockGroupId: G1, teacherId: T1, room: "B2", date: "2026-03-04" };
    await applyChange(
      queryClient,
      { ...sessionEvent(["s"], [now]), before: [{ ...now, room: "B1" }] },
      createCoalescer(queryClient),
      fetchRows,
      async () => null,
    );
    const keys = keyed(invalidate.mock.calls);
    for (const key of [
      [...roots.allocationGrid, 2026, 1],
      [...roots.allocationGrid, "week", T1, "2026-03-02"],
      [...roots.teachers, "detail", T1, "delivery-summary", 2026],
      [...roots.blockGroups, "detail", G1, "timetabled-units"],
      [...roots.reports, "teacher-workload", 2026],
      [...roots.reports, "room-utilisation", 2026],
    ])
      expect(keys).toContain(JSON.stringify(key));
    for (const key of [
      [...roots.teachers, "list", { showInactive: false }],
      [...roots.teachers, "choices"],
      [...roots.blockGroups, "list", {}],
      [...roots.reports, "block-groups-without-timetables"],
    ])
      expect(keys).not.toContain(JSON.stringify(key));
  });

  test("a created session fetches just its group and patches the lists and the detail that show it", async () => {
    const { queryClient, invalidate, fetchRows } = setup();
    screens(queryClient);
    const groups: string[] = [];
    const fetchGroup = async (id: string) => {
      groups.push(id);
      return group(id, 4) as never;
    };
    const created = { id: "new", blockGroupId: G1, teacherId: null, date: "2027-02-01" };
    await applyChange(queryClient, { ...sessionEvent(["new"], [created]), before: [] }, createCoalescer(queryClient), fetchRows, fetchGroup);
    expect(groups).toEqual([G1]);
    expect((queryClient.getQueryData([...roots.blockGroups, "list", {}]) as { id: string; timetableCount: number }[]).map((g) => g.timetableCount)).toEqual([
      4, 0,
    ]);
    expect((queryClient.getQueryData([...roots.blockGroups, "detail", G1]) as { timetableCount: number }).timetableCount).toBe(4);
    const keys = keyed(invalidate.mock.calls);
    expect(keys).not.toContain(JSON.stringify([...roots.blockGroups, "list", {}]));
    expect(keys).toContain(JSON.stringify([...roots.reports, "block-groups-without-timetables"]));
    expect(keys).not.toContain(JSON.stringify([...roots.allocationGrid, 2026, 1])); // no teacher, another year
  });

  test("group patches apply in order: a later change's answer is never overwritten by an earlier one", async () => {
    const { queryClient, fetchRows } = setup();
    queryClient.setQueryData([...roots.blockGroups, "list", {}], [group(G1, 3)]);
    const answers: ((n: number) => void)[] = [];
    const fetchGroup = (id: string) => new Promise<never>((resolve) => answers.push((n) => resolve(group(id, n) as never)));
    const created = (id: string) => ({ ...sessionEvent([id], [{ id, blockGroupId: G1, teacherId: null, date: "2027-02-01" }]), before: [] });
    const first = applyChange(queryClient, created("a"), createCoalescer(queryClient), fetchRows, fetchGroup);
    const second = applyChange(queryClient, created("b"), createCoalescer(queryClient), fetchRows, fetchGroup);
    await vi.waitFor(() => expect(answers.length).toBe(1)); // the second fetch waits for the first patch
    answers[0](4);
    await vi.waitFor(() => expect(answers.length).toBe(2));
    answers[1](5);
    await Promise.all([first, second]);
    expect((queryClient.getQueryData([...roots.blockGroups, "list", {}]) as { timetableCount: number }[])[0].timetableCount).toBe(5);
  });
});

describe("a schedule generated or cleared says what it touched (ADR 0033)", () => {
  const now = new Date(2026, 2, 4, 10); // Wednesday 4 March 2026: the week is 2..8 March
  const generated = (
    dates: string[],
    extra: Partial<NonNullable<LiveEvent["schedule"]>> = {},
    action: "scheduled" | "schedule_cleared" = "scheduled",
  ): LiveEvent => ({
    entity: "timetable_session",
    action,
    ids: [G1],
    schedule: { dates, times: [{ start: "09:00:00", end: "15:00:00" }], teacherIds: [], roomIds: [], rooms: [], ...extra },
  });
  const keys = (calls: unknown[][]) => calls.map((c) => JSON.stringify((c[0] as { queryKey?: unknown })?.queryKey));
  const group = (id: string, timetableCount: number) => ({ id, code: id.toUpperCase(), timetableCount, updatedAt: "" });

  test("the group's own lists refetch; another group's list only for a room it shares at a time, or a teacher's week", async () => {
    const { queryClient, invalidate, fetched, fetchRows } = setup();
    const morning = { endTime: "12:00:00" };
    queryClient.setQueryData(listKey(G1), [row("a", G1, "2026-03-02", morning)]);
    queryClient.setQueryData(listKey(G2), [
      row("b", G2, "2026-03-10", { ...morning, room: "Lab 1", roomId: "r1" }),
      row("c", G2, "2026-03-17", { ...morning, teacherId: T1 }),
    ]);
    const quiet = await applyChange(queryClient, generated(["2026-03-09", "2026-03-11"], { rooms: ["Lab 1"] }), createCoalescer(queryClient), fetchRows);
    expect(quiet).toMatchObject({ refetched: 1, untouched: 1, fallback: false });
    expect(fetched).toEqual([]); // a whole refetch of the group's list, no `?ids=` of a group id
    expect(keys(invalidate.mock.calls)).toContain(JSON.stringify(listKey(G1)));
    expect(keys(invalidate.mock.calls)).not.toContain(JSON.stringify(listKey(G2)));
    expect(keys(invalidate.mock.calls)).not.toContain(JSON.stringify(roots.timetables));

    // the same room on one of its dates at an overlapping time, spelled another way: a room clash may appear
    const concerned = async (event: LiveEvent) => {
      invalidate.mockClear();
      await applyChange(queryClient, event, createCoalescer(queryClient), fetchRows);
      return keys(invalidate.mock.calls).includes(JSON.stringify(listKey(G2)));
    };
    expect(await concerned(generated(["2026-03-10"], { rooms: [" lab 1 "] }))).toBe(true);
    expect(await concerned(generated(["2026-03-10"], { roomIds: ["r1"] }))).toBe(true);
    expect(await concerned(generated(["2026-03-10"], { roomIds: ["r1"], times: [{ start: "12:00:00", end: "15:00:00" }] }))).toBe(false); // after it
    expect(await concerned(generated(["2026-03-10"], { roomIds: ["r1"], times: [{ start: "11:00:00", end: "15:00:00" }] }))).toBe(true);
    // rows created with the teacher in the week of another row of theirs: weekly hours may go over
    expect(await concerned(generated(["2026-03-16"], { teacherIds: [T1] }))).toBe(true);
    // a teacher's rows cleared: only a row with a conflict they can take away changes
    const cleared = (dates: string[], extra = {}) => generated(dates, { teacherIds: [T1], ...extra }, "schedule_cleared");
    const withConflict = (conflicts: string[]) =>
      queryClient.setQueryData(listKey(G2), [
        row("b", G2, "2026-03-10", { ...morning, room: "Lab 1", roomId: "r1" }),
        row("c", G2, "2026-03-17", { ...morning, teacherId: T1, conflicts }),
      ]);
    expect(await concerned(cleared(["2026-03-16"]))).toBe(false); // no conflict to lose
    withConflict(["teacher_unqualified"]);
    expect(await concerned(cleared(["2026-03-16"]))).toBe(false); // a conflict of the row alone
    withConflict(["teacher_over_weekly_hours"]);
    expect(await concerned(cleared(["2026-03-16"]))).toBe(true);
    expect(await concerned(cleared(["2026-03-24"]))).toBe(false); // another week
    withConflict(["teacher_double_booked"]);
    expect(await concerned(cleared(["2026-03-16"]))).toBe(false); // another day of the week
    expect(await concerned(cleared(["2026-03-17"]))).toBe(true);
    expect(await concerned(cleared(["2026-03-10"], { teacherIds: [], roomIds: ["r1"] }))).toBe(false); // b has no room clash
    // the teacher's own list, and a list of every session, always
    queryClient.setQueryData(listKey(null, T1), [row("c", G2, "2026-03-17", { teacherId: T1 })]);
    queryClient.setQueryData(listKey(null), [row("b", G2, "2026-03-10")]);
    invalidate.mockClear();
    await applyChange(queryClient, cleared(["2026-05-04"]), createCoalescer(queryClient), fetchRows);
    expect(keys(invalidate.mock.calls)).toContain(JSON.stringify(listKey(null, T1)));
    expect(keys(invalidate.mock.calls)).toContain(JSON.stringify(listKey(null)));
  });

  test("an event without its schedule (an older server) still refetches every list", async () => {
    const { queryClient, invalidate, fetchRows } = setup();
    queryClient.setQueryData(listKey(G2), [row("b", G2, "2026-03-10")]);
    const applied = await applyChange(queryClient, { entity: "timetable_session", action: "scheduled", ids: [G1] }, createCoalescer(queryClient), fetchRows);
    expect(applied.fallback).toBe(true);
    expect(keys(invalidate.mock.calls)).toContain(JSON.stringify(roots.timetables));
  });

  test("dashboard panels refetch only for a date in their span", async () => {
    vi.useFakeTimers({ now, toFake: ["Date"] });
    try {
      const { queryClient, invalidate, fetchRows } = setup();
      for (const part of ["stats", "teacher-workload", "upcoming-sessions"]) queryClient.setQueryData([...roots.dashboard, part], {});
      const dashboardCalls = () => invalidate.mock.calls.filter((c) => JSON.stringify(c[0]?.queryKey ?? []).startsWith('["dashboard"')).length;
      const later = await applyChange(queryClient, generated(["2026-04-06", "2026-04-08"]), createCoalescer(queryClient), fetchRows);
      expect(later.skipped).toBe(3);
      expect(dashboardCalls()).toBe(0);
      const thisWeek = await applyChange(queryClient, generated(["2026-03-02", "2026-04-06"]), createCoalescer(queryClient), fetchRows);
      expect(thisWeek.skipped).toBe(1); // upcoming (3..11 March) shows none of them
      expect(dashboardCalls()).toBe(2); // a generation changes the week's sums of hours
    } finally {
      vi.useRealTimers();
    }
  });

  test("block group lists showing the group refetch; teacher screens and the allocation grid stay unless a teacher's rows were cleared", async () => {
    const { queryClient, invalidate, fetchRows } = setup();
    queryClient.setQueryData([...roots.blockGroups, "list", {}], [group(G1, 3), group(G2, 0)]);
    queryClient.setQueryData([...roots.blockGroups, "list", { status: ["completed"] }], [group(G2, 0)]);
    queryClient.setQueryData([...roots.blockGroups, "detail", G1], group(G1, 3));
    queryClient.setQueryData([...roots.blockGroups, "detail", G1, "timetabled-units"], []);
    queryClient.setQueryData([...roots.blockGroups, "detail", G2, "timetabled-units"], []);
    queryClient.setQueryData([...roots.teachers, "list", { showInactive: false }], []);
    queryClient.setQueryData([...roots.teachers, "detail", T1, "delivery-summary", 2026], {});
    queryClient.setQueryData([...roots.allocationGrid, "week", T1, "2026-03-02"], []);
    queryClient.setQueryData([...roots.reports, "scheduling-summary", 2026], {});
    queryClient.setQueryData([...roots.reports, "scheduling-summary", 2025], {});
    const groups: string[] = [];
    const fetchGroup = async (id: string) => {
      groups.push(id);
      return group(id, 40) as never;
    };
    await applyChange(queryClient, generated(["2026-03-04"]), createCoalescer(queryClient), fetchRows, fetchGroup);
    expect(groups).toEqual([]); // the lists read the one answer the server keeps, not the group each
    let called = keys(invalidate.mock.calls);
    for (const key of [
      [...roots.blockGroups, "list", {}],
      [...roots.blockGroups, "detail", G1],
      [...roots.blockGroups, "detail", G1, "timetabled-units"],
      [...roots.reports, "scheduling-summary", 2026],
    ])
      expect(called).toContain(JSON.stringify(key));
    for (const key of [
      [...roots.blockGroups, "list", { status: ["completed"] }],
      [...roots.blockGroups, "detail", G2, "timetabled-units"],
      [...roots.teachers, "list", { showInactive: false }],
      [...roots.teachers, "detail", T1, "delivery-summary", 2026],
      [...roots.allocationGrid, "week", T1, "2026-03-02"],
      [...roots.reports, "scheduling-summary", 2025],
    ])
      expect(called).not.toContain(JSON.stringify(key));
    invalidate.mockClear();
    await applyChange(queryClient, generated(["2026-03-04"], { teacherIds: [T1] }, "schedule_cleared"), createCoalescer(queryClient), fetchRows, fetchGroup);
    called = keys(invalidate.mock.calls);
    expect(called).toContain(JSON.stringify([...roots.teachers, "detail", T1, "delivery-summary", 2026]));
    expect(called).toContain(JSON.stringify([...roots.allocationGrid, "week", T1, "2026-03-02"]));
    expect(called).not.toContain(JSON.stringify([...roots.teachers, "list", { showInactive: false }]));
  });
});
