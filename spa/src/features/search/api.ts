/**
 * Header search data: the lists of GET /api/courses, /api/units, /api/teachers,
 * /api/block-groups and /api/rooms, cached under roots.search (5 minutes fresh; change events invalidate roots.search),
 * filtered on the client as the user types.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { client } from "@/lib/api";
import { roots } from "@/lib/queryKeys";

export type SearchKind = "course" | "unit" | "teacher" | "blockGroup" | "room";

export interface SearchItem {
  kind: SearchKind;
  id: string;
  label: string;
  detail: string;
  path: string;
}

/** A coded record (course, unit, block group) as a search item: the code, the name beside it. */
const coded =
  (kind: SearchKind, base: string) =>
  (row: { id: string; code: string; name: string }): SearchItem => ({
    kind,
    id: row.id,
    label: row.code,
    detail: row.name,
    path: `${base}/${row.id}`,
  });

/** Each list's items; a list that fails to load adds none. */
const SOURCES: (() => Promise<SearchItem[]>)[] = [
  async () => (await client.GET("/api/courses")).data!.map(coded("course", "/courses")),
  async () => (await client.GET("/api/units")).data!.map(coded("unit", "/units")),
  async () =>
    (await client.GET("/api/teachers")).data!.map((row) => ({
      kind: "teacher" as const,
      id: row.id,
      label: `${row.firstName} ${row.lastName}`.trim() || row.email || "Teacher",
      detail: row.employeeId,
      path: `/teachers/${row.id}`,
    })),
  async () => (await client.GET("/api/block-groups")).data!.map(coded("blockGroup", "/block-groups")),
  // Rooms by code and name (ADR 0018): the Rooms page, filtered to the room.
  async () =>
    (await client.GET("/api/rooms")).data!.map((row) => ({
      kind: "room" as const,
      id: row.id,
      label: row.code,
      detail: [row.name, row.campus?.name].filter(Boolean).join(" · "),
      path: `/rooms?search=${encodeURIComponent(row.code)}`,
    })),
];

export async function fetchSearchIndex(): Promise<SearchItem[]> {
  const lists = await Promise.all(SOURCES.map((load) => load().catch((): SearchItem[] => [])));
  return lists.flat();
}

export const searchIndexQueryOptions = () => queryOptions({ queryKey: [...roots.search, "index"], queryFn: fetchSearchIndex });

export function useSearchIndex(enabled: boolean) {
  return useQuery({ ...searchIndexQueryOptions(), enabled });
}

/** Items whose label or detail contains every word of the query (case-insensitive), at most `limit` per kind. */
export function filterSearch(items: SearchItem[], query: string, limit = 5): SearchItem[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const counts: Record<string, number> = {};
  const out: SearchItem[] = [];
  for (const item of items) {
    const hay = `${item.label} ${item.detail}`.toLowerCase();
    if (!words.every((w) => hay.includes(w))) continue;
    counts[item.kind] = (counts[item.kind] ?? 0) + 1;
    if (counts[item.kind] <= limit) out.push(item);
  }
  return out;
}
