/** Small text helpers of several screens: counts in words, percentages, durations, hours, typed codes. */

/** 42 -> "42%", 42.25 -> "42.3%". */
export function percent(value: number): string {
  const n = Math.round(value * 10) / 10;
  return `${Number.isInteger(n) ? n : n.toFixed(1)}%`;
}

/** Solver time: 850 -> "850 ms", 2345 -> "2.3 s". */
export function solveTime(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** "1 session" / "3 sessions". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Hours with up to two decimals: 3 -> "3", 2.5 -> "2.5". */
export function hoursText(value: number): string {
  const n = Math.round(value * 100) / 100;
  return String(n);
}

/** Keeps only digits, at most 6 (the authenticator code inputs). */
export const digitsOnly = (value: string) => value.replace(/\D/g, "").slice(0, 6);
