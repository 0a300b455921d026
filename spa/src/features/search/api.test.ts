import { vi } from "vitest";
import { mockFetch } from "@/test/fetchMock";
import { fetchSearchIndex, filterSearch, type SearchItem } from "./api";

const items: SearchItem[] = [
  { kind: "course", id: "c1", label: "ICT50220", detail: "Diploma of Information Technology", path: "/courses/c1" },
  { kind: "unit", id: "u1", label: "ICTCYS407", detail: "Gather, analyse and interpret threat data", path: "/units/u1" },
  { kind: "teacher", id: "t1", label: "Maria Rossi", detail: "EMP001", path: "/teachers/t1" },
  { kind: "blockGroup", id: "b1", label: "CYB-2026-A", detail: "Cyber cohort A", path: "/block-groups/b1" },
];

test("matches code, name and every word, case-insensitively", () => {
  expect(filterSearch(items, "ict").map((i) => i.id)).toEqual(["c1", "u1"]);
  expect(filterSearch(items, "information diploma").map((i) => i.id)).toEqual(["c1"]);
  expect(filterSearch(items, "rossi").map((i) => i.path)).toEqual(["/teachers/t1"]);
  expect(filterSearch(items, "cohort").map((i) => i.kind)).toEqual(["blockGroup"]);
  expect(filterSearch(items, "   ")).toEqual([]);
});

test("at most `limit` results per kind", () => {
  const many = Array.from({ length: 9 }, (_, i) => ({ ...items[0], id: `c${i}` }));
  expect(filterSearch(many, "ict", 5)).toHaveLength(5);
});

test("the index holds the four lists' records; a list that fails adds none", async () => {
  mockFetch((url) => {
    if (url === "/api/courses") return { body: [{ id: "c1", code: "ICT50220", name: "Diploma of IT" }] };
    if (url === "/api/teachers") return { body: [{ id: "t1", firstName: "Maria", lastName: "Rossi", email: "m@x.au", employeeId: "EMP001" }] };
    if (url === "/api/block-groups") return { body: [{ id: "b1", code: "CYB-2026-A", name: "Cyber cohort A" }] };
    return { status: 500, body: { message: "Boom" } };
  });
  await expect(fetchSearchIndex()).resolves.toEqual([
    { kind: "course", id: "c1", label: "ICT50220", detail: "Diploma of IT", path: "/courses/c1" },
    { kind: "teacher", id: "t1", label: "Maria Rossi", detail: "EMP001", path: "/teachers/t1" },
    { kind: "blockGroup", id: "b1", label: "CYB-2026-A", detail: "Cyber cohort A", path: "/block-groups/b1" },
  ]);
  vi.unstubAllGlobals();
});
