/** Organization calls through the typed client: the PUT's body and its If-Match with the loaded updatedAt. */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { vi } from "vitest";
import { jsonBody, mockFetch } from "@/test/fetchMock";
import { fetchAdminUsers, updateOrganization, useSaveOrganizationRecord } from "./api";

afterEach(() => vi.unstubAllGlobals());

const org = {
  id: "o1",
  name: "Demo TAFE",
  domain: "demo.edu.au",
  address: "",
  phone: "",
  website: "",
  timezone: "Australia/Melbourne",
  isActive: true,
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: "2026-01-02T00:00:00Z",
};

test("a save PUTs the five fields with If-Match, and without it when nothing was loaded", async () => {
  const fetch = mockFetch((url, init) => (url === "/api/organization" && init.method === "PUT" ? { body: org } : undefined));
  await expect(updateOrganization({ values: { name: "Demo TAFE", domain: "demo.edu.au" }, updatedAt: org.updatedAt })).resolves.toEqual(org);
  const init = fetch.mock.calls[0][1];
  expect(jsonBody(init)).toEqual({ name: "Demo TAFE", domain: "demo.edu.au", address: "", phone: "", website: "" });
  expect(new Headers(init?.headers).get("If-Match")).toBe(`"${org.updatedAt}"`);
  await updateOrganization({ values: { name: "Demo TAFE", domain: "demo.edu.au" } });
  expect(new Headers(fetch.mock.calls[1][1]?.headers).get("If-Match")).toBeNull();
});

test("the users list is the server's", async () => {
  mockFetch((url) => (url === "/api/admin/users" ? { body: [] } : undefined));
  await expect(fetchAdminUsers()).resolves.toEqual([]);
});

test("an organization-wide record's save puts the answer in the cache, then refetches it", async () => {
  const queryClient = new QueryClient();
  queryClient.setQueryData(["organization"], org);
  const refetch = vi.spyOn(queryClient, "invalidateQueries");
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  const { result } = renderHook(() => useSaveOrganizationRecord(["organization"], async (name: string) => ({ ...org, name })), { wrapper });
  await act(() => result.current.mutateAsync("Renamed TAFE"));
  expect(queryClient.getQueryData(["organization"])).toMatchObject({ name: "Renamed TAFE" });
  expect(refetch).toHaveBeenCalledWith({ queryKey: ["organization"] });
});
