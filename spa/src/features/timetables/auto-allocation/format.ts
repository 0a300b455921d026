/** Display helpers of the auto-allocation views (the general ones are in lib/format.ts). */

/** Solver status for people: OPTIMAL -> "Optimal", FEASIBLE -> "Best found in time". */
export function solverStatus(status: string): string {
  if (status === "OPTIMAL") return "Optimal";
  if (status === "FEASIBLE") return "Best found in time";
  if (status === "APPLIED") return "Applied";
  return status.charAt(0) + status.slice(1).toLowerCase();
}
