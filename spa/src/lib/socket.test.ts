import { QueryClient } from "@tanstack/react-query";
import { SPREAD_MS } from "./liveTargets";
import { createChangeHandler } from "./socket";
import { entityInvalidates, roots } from "./queryKeys";

function setup() {
  const queryClient = new QueryClient();
  const spy = vi.spyOn(queryClient, "invalidateQueries").mockResolvedValue();
  // Aggregates at once (spread 0): these tests are about what an event refreshes; the spread has its own.
  return { handler: createChangeHandler(queryClient, undefined, 0), spy };
}

const event = (entity: string, seq: number) => ({ entity, action: "updated", ids: ["x"], seq, actorId: "a", origin: "o", at: "" });

test("a change invalidates the roots its entity maps to", () => {
  const { handler, spy } = setup();
  expect(handler.onChange(event("course", 10))).toBe(entityInvalidates.course);
  // Plus the activity history (every write is an activity, ADR 0011).
  expect(spy.mock.calls.map((c) => c[0]?.queryKey)).toEqual([roots.activity, ...entityInvalidates.course]);
});

test("consecutive seqs invalidate only the mapped roots; a gap still open after 300 ms invalidates everything", () => {
  vi.useFakeTimers();
  try {
    const { handler, spy } = setup();
    handler.onChange(event("holiday", 1));
    handler.onChange(event("teacher", 2));
    spy.mockClear();
    expect(handler.onChange(event("holiday", 4))).toBe("held");
    expect(spy).not.toHaveBeenCalled();
    vi.advanceTimersByTime(300);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy).toHaveBeenCalledWith();
    spy.mockClear();
    expect(handler.onChange(event("holiday", 5))).toBe(entityInvalidates.holiday);
  } finally {
    vi.useRealTimers();
  }
});

test("a late event within the window is applied in order, without a full refetch", () => {
  vi.useFakeTimers();
  try {
    const { handler, spy } = setup();
    handler.onChange(event("holiday", 1));
    spy.mockClear();
    expect(handler.onChange(event("teacher", 3))).toBe("held");
    expect(handler.onChange(event("course", 2))).toBe(entityInvalidates.teacher); // 2 then 3 applied
    const called = spy.mock.calls.map((c) => JSON.stringify(c[0]?.queryKey));
    // Both events' own roots were refreshed; aggregate screens are coalesced (lib/liveTargets.ts).
    const aggregates = new Set([roots.dashboard, roots.reports, roots.allocationGrid, roots.blockGroups, roots.teachers].map((r) => JSON.stringify(r)));
    for (const root of [...entityInvalidates.course, ...entityInvalidates.teacher]) {
      if (!aggregates.has(JSON.stringify(root))) expect(called).toContain(JSON.stringify(root));
    }
    vi.advanceTimersByTime(1000);
    expect(spy.mock.calls.some((c) => c[0] === undefined)).toBe(false);
  } finally {
    vi.useRealTimers();
  }
});

test("an unknown entity invalidates everything", () => {
  const { handler } = setup();
  expect(handler.onChange(event("something_new", 1))).toBe("all");
});

test("a reconnect invalidates everything and restarts the seq baseline", () => {
  const { handler, spy } = setup();
  handler.onChange(event("course", 7));
  spy.mockClear();
  expect(handler.onConnect(false)).toBe("all");
  expect(spy).toHaveBeenCalledWith();
  spy.mockClear();
  // After a reconnect the first event sets a new baseline: no gap.
  expect(handler.onChange(event("course", 42))).toBe(entityInvalidates.course);
});

test("the first connect refreshes only what was loaded, never the user", () => {
  const queryClient = new QueryClient();
  queryClient.setQueryData(roots.user, { id: "u" });
  queryClient.setQueryData([...roots.courses, "list"], []);
  const handler = createChangeHandler(queryClient);
  handler.onConnect(true);
  expect(queryClient.getQueryState([...roots.courses, "list"])?.isInvalidated).toBe(true);
  expect(queryClient.getQueryState(roots.user)?.isInvalidated).toBe(false);
});

test("a hidden event (an admin-only change sent to a member) only keeps the seq order", () => {
  const { handler, spy } = setup();
  handler.onChange(event("course", 1));
  spy.mockClear();
  expect(handler.onChange({ seq: 2, hidden: true } as never)).toEqual([]);
  expect(handler.onChange(event("holiday", 3))).toBe(entityInvalidates.holiday); // no gap
  expect(spy.mock.calls.some((c) => c[0] === undefined)).toBe(false);
});

test("the first connect also restarts a read still in flight (it may have missed a change)", async () => {
  const queryClient = new QueryClient();
  let release: (v: unknown) => void = () => {};
  void queryClient.fetchQuery({ queryKey: [...roots.courses, "list"], queryFn: () => new Promise((r) => (release = r)) });
  expect(queryClient.getQueryState([...roots.courses, "list"])?.fetchStatus).toBe("fetching");
  const handler = createChangeHandler(queryClient, undefined, 0);
  handler.onConnect(true);
  expect(queryClient.getQueryState([...roots.courses, "list"])?.isInvalidated).toBe(true);
  release([]);
});

test("live where the data is: qualification and linked-group events refresh open timetables, holidays the allocation grid (ADR 0018)", () => {
  const { handler, spy } = setup();
  handler.onChange(event("teacher_unit", 1));
  handler.onChange(event("linked_block_group", 2));
  handler.onChange(event("holiday", 3));
  const keys = spy.mock.calls.map((c) => c[0]?.queryKey);
  expect(keys.filter((k) => k === roots.timetables)).toHaveLength(3);
  expect(keys).toContain(roots.allocationGrid);
});

test("a role change refetches everything, the signed-in user included (ADR 0023)", () => {
  const { handler, spy } = setup();
  expect(handler.onAccessChanged()).toBe("all");
  expect(spy).toHaveBeenCalledTimes(1);
  expect(spy.mock.calls[0][0]).toBeUndefined();
});

test("a seq notice ahead of the last event re-reads everything once; one already seen does nothing", () => {
  const { handler, spy } = setup();
  handler.onChange(event("holiday", 1));
  spy.mockClear();
  expect(handler.onSeq(1)).toBe(false);
  expect(spy).not.toHaveBeenCalled();
  expect(handler.onSeq(3)).toBe(true); // 2 and 3 never came
  expect(spy).toHaveBeenCalledTimes(1);
  expect(spy).toHaveBeenCalledWith();
  spy.mockClear();
  expect(handler.onChange(event("holiday", 3))).toBe("duplicate"); // covered by the re-read
  expect(handler.onChange(event("teacher", 4))).toBe(entityInvalidates.teacher);
  expect(spy).not.toHaveBeenCalledWith();
});

test("a seq notice releases held events past it without waiting for the reorder window", () => {
  vi.useFakeTimers();
  try {
    const { handler, spy } = setup();
    handler.onChange(event("holiday", 1));
    expect(handler.onChange(event("teacher", 4))).toBe("held");
    spy.mockClear();
    expect(handler.onSeq(3)).toBe(true);
    const keys = spy.mock.calls.map((c) => JSON.stringify(c[0]?.queryKey));
    expect(spy).toHaveBeenCalledWith(); // everything
    expect(keys).toContain(JSON.stringify(roots.teachers)); // then seq 4 applied in order
    spy.mockClear();
    vi.advanceTimersByTime(500); // past the 300 ms reorder window, before the 1 s coalescing
    expect(spy).not.toHaveBeenCalled(); // no gap left to time out
  } finally {
    vi.useRealTimers();
  }
});

test("aggregates are read again after a random 0..SPREAD_MS, the lists they patch at once (ADR 0031)", () => {
  vi.useFakeTimers();
  try {
    const queryClient = new QueryClient();
    const spy = vi.spyOn(queryClient, "invalidateQueries").mockResolvedValue();
    vi.spyOn(Math, "random").mockReturnValue(0.99);
    const handler = createChangeHandler(queryClient);
    handler.onChange(event("course", 1));
    const keys = () => spy.mock.calls.map((c) => JSON.stringify(c[0]?.queryKey));
    expect(keys()).not.toContain(JSON.stringify(roots.dashboard)); // an aggregate: not yet
    expect(keys()).toContain(JSON.stringify(roots.courses)); // not an aggregate: at once
    vi.advanceTimersByTime(SPREAD_MS - 10);
    expect(keys()).not.toContain(JSON.stringify(roots.dashboard));
    vi.advanceTimersByTime(10);
    expect(keys()).toContain(JSON.stringify(roots.dashboard));
  } finally {
    vi.restoreAllMocks();
    vi.useRealTimers();
  }
});
