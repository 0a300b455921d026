import { createEventSequencer } from "./eventOrder";

function setup(windowMs = 300) {
  const delivered: number[] = [];
  const gaps: number[] = [];
  const seq = createEventSequencer<{ seq: number }>({
    deliver: (e) => delivered.push(e.seq),
    onGap: () => gaps.push(delivered.length),
    windowMs,
  });
  return { seq, delivered, gaps, push: (n: number) => seq.push({ seq: n }) };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

test("events in order are delivered at once", () => {
  const { push, delivered, gaps } = setup();
  expect([push(5), push(6), push(7)]).toEqual(["delivered", "delivered", "delivered"]);
  expect(delivered).toEqual([5, 6, 7]);
  expect(gaps).toEqual([]);
});

test("a swapped pair is delivered in order, with no refetch", () => {
  const { push, delivered, gaps } = setup();
  push(1);
  expect(push(3)).toBe("held");
  expect(delivered).toEqual([1]);
  vi.advanceTimersByTime(200);
  expect(push(2)).toBe("delivered");
  expect(delivered).toEqual([1, 2, 3]);
  vi.advanceTimersByTime(1000);
  expect(gaps).toEqual([]);
});

test("several early events wait for the missing one and drain in order", () => {
  const { push, delivered } = setup();
  push(10);
  push(14);
  push(12);
  push(13);
  expect(delivered).toEqual([10]);
  push(11);
  expect(delivered).toEqual([10, 11, 12, 13, 14]);
});

test("a gap still open after the window refetches once and moves on", () => {
  const { push, delivered, gaps } = setup();
  push(1);
  push(3);
  push(4);
  vi.advanceTimersByTime(299);
  expect(gaps).toEqual([]);
  vi.advanceTimersByTime(1);
  expect(gaps).toEqual([1]); // one full refetch, after 1 was delivered
  expect(push(2)).toBe("duplicate"); // too late: the refetch covered it
  expect(push(5)).toBe("delivered");
  expect(delivered).toEqual([1, 5]);
});

test("duplicates and older seqs are dropped; reset starts a new baseline", () => {
  const { seq, push, delivered } = setup();
  push(7);
  expect(push(7)).toBe("duplicate");
  expect(push(3)).toBe("duplicate");
  push(9);
  expect(push(9)).toBe("duplicate");
  seq.reset();
  expect(push(100)).toBe("delivered");
  vi.advanceTimersByTime(1000);
  expect(delivered).toEqual([7, 100]);
});

test("an event without a seq is delivered at once", () => {
  const delivered: unknown[] = [];
  const s = createEventSequencer<{ seq?: number | null }>({ deliver: (e) => delivered.push(e), onGap: () => {} });
  s.push({});
  expect(delivered).toHaveLength(1);
});
