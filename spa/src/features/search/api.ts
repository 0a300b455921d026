/**
 * Header search data (issue 8): the lists of GET /api/courses, /api/units, /api/teachers and
 * /api/block-groups, cached under roots.search (5 minutes fresh; change events invalidate roots.search),
 * filtered on the client as the user types.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "../../lib/api";
import { roots } from "../../lib/queryKeys";

const recordSchema = z
  .object({
    id: z.string(),
    code: z.string().nullish(),
    name: z.string().nullish(),
    firstName: z.string().nullish(),
    lastName: z.string().nullish(),
    employeeId: z.string().nullish(),
    email: z.string().nullish(),
  })
  .loose();

type SearchRecord = z.infer<typeof recordSchema>;

export type SearchKind = "course" | "unit" | "teacher" | "blockGroup";

export interface SearchItem {
  kind: SearchKind;
  id: string;
  label: string;
  detail: string;
  path: string;
}

const SOURCES: { kind: SearchKind; url: string; base: string }[] = [
  { kind: "course", url: "/api/courses", base: "/courses" },
  { kind: "unit", url: "/api/units", base: "/units" },
  { kind: "teacher", url: "/api/teachers", base: "/teachers" },
  { kind: "blockGroup", url: "/api/block-groups", base: "/block-groups" },
];

/** A list answer may be a bare array or wrapped ({items} / {results}). */
function rows(data: unknown): SearchRecord[] {
  const list = Array.isArray(data)
    ? data
    : data && typeof data === "object"
      ? ((data as { items?: unknown[]; results?: unknown[] }).items ?? (data as { results?: unknown[] }).results ?? [])
      : [];
  return list.flatMap((row) => {
    const parsed = recordSchema.safeParse(row);
    return parsed.success ? [parsed.data] : [];
  });
}

function toItem(kind: SearchKind, base: string, row: SearchRecord): SearchItem {
  if (kind === "teacher") {
    const name = `${row.firstName ?? ""} ${row.lastName ?? ""}`.trim() || row.email || "Teacher";
    return { kind, id: row.id, label: name, detail: row.employeeId ?? row.email ?? "", path: `${base}/${row.id}` };
  }
  return { kind, id: row.id, label: row.code ?? row.name ?? "", detail: row.name ?? "", path: `${base}/${row.id}` };
}

export async function fetchSearchIndex(): Promise<SearchItem[]> {
  const lists = await Promise.all(
    SOURCES.map(async (source) => {
      try {
        const data = await apiJson<unknown>(source.url);
        return rows(data).map((row) => toItem(source.kind, source.base, row));
      } catch {
        return [];
      }
    }),
  );
  return lists.flat();
}

export const searchIndexQueryOptions = () =>
  queryOptions({ queryKey: [...roots.search, "index"], queryFn: fetchSearchIndex });

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
