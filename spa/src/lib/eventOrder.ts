/**
 * In-order delivery of change events (docs/adr/0007 and docs/realtime.md).
 *
 * The server numbers each organization's changes (`seq`, in commit order) but concurrent writes can reach
 * a socket out of order. The sequencer delivers events in seq order: an early event (seq > last + 1) is
 * held; when the missing ones arrive within `windowMs` (300 ms) everything is delivered in order; a gap
 * still open after the window calls `onGap` (the caller refetches everything) and the baseline moves past
 * the held events, whose changes the refetch covers. Duplicates and older seqs are dropped. An event
 * without a seq is delivered at once. Pure (timers injectable), so it is tested without a socket and run
 * as is by the concurrent-writes test in tests/realtime.
 */
export interface Sequenced {
  seq?: number | null;
}

export type PushResult = "delivered" | "held" | "duplicate";

export interface SequencerOptions<E extends Sequenced> {
  deliver: (event: E) => void;
  onGap: () => void;
  windowMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export const REORDER_WINDOW_MS = 300;

export function createEventSequencer<E extends Sequenced>(options: SequencerOptions<E>) {
  const windowMs = options.windowMs ?? REORDER_WINDOW_MS;
  const setTimer = options.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  let last: number | null = null;
  const held = new Map<number, E>();
  let timer: unknown = null;

  const stopTimer = () => {
    if (timer !== null) clearTimer(timer);
    timer = null;
  };

  const drain = () => {
    while (last !== null && held.has(last + 1)) {
      const next = held.get(last + 1)!;
      held.delete(last + 1);
      last += 1;
      options.deliver(next);
    }
    if (held.size === 0) stopTimer();
  };

  const giveUp = () => {
    timer = null;
    if (held.size === 0) return;
    last = Math.max(...held.keys());
    held.clear();
    options.onGap();
  };

  return {
    push(event: E): PushResult {
      const seq = typeof event?.seq === "number" ? event.seq : null;
      if (seq === null) {
        options.deliver(event);
        return "delivered";
      }
      if (last === null) {
        last = seq;
        options.deliver(event);
        drain();
        return "delivered";
      }
      if (seq <= last || held.has(seq)) return "duplicate";
      if (seq === last + 1) {
        last = seq;
        options.deliver(event);
        drain();
        return "delivered";
      }
      held.set(seq, event);
      if (timer === null) timer = setTimer(giveUp, windowMs);
      return "held";
    },
    /**
     * The server says the organization is at `seq` (a `seq` notice, or the answer to asking on focus).
     * Returns true when this client is behind it — events up to `seq` never came — after moving the
     * baseline to `seq` and dropping held events up to it (the caller re-reads what it shows).
     */
    catchUp(seq: number): boolean {
      if (last !== null && seq <= last) return false;
      last = seq;
      for (const held_seq of [...held.keys()]) if (held_seq <= seq) held.delete(held_seq);
      drain();
      return true;
    },
    /** A (re)connection: the seq baseline restarts and held events are dropped (the caller refetches). */
    reset() {
      stopTimer();
      held.clear();
      last = null;
    },
    /** The seq of the last event delivered, or null before the first. */
    get last() {
      return last;
    },
  };
}
