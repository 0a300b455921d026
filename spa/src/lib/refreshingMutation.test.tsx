import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { useRefreshingMutation } from "./refreshingMutation";

function setup() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const invalidated = vi.spyOn(qc, "invalidateQueries");
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
  return { invalidated, wrapper };
}
const keys = (spy: ReturnType<typeof setup>["invalidated"]) => spy.mock.calls.map(([filters]) => filters?.queryKey);

test("refreshes every area once the mutation settles, after a failure too", async () => {
  const { invalidated, wrapper } = setup();
  const { result } = renderHook(
    () => useRefreshingMutation([["courses"], ["timetables"]], async (ok: boolean) => (ok ? "saved" : Promise.reject(new Error("no")))),
    { wrapper },
  );
  await act(() => result.current.mutateAsync(true));
  expect(keys(invalidated)).toEqual([["courses"], ["timetables"]]);
  invalidated.mockClear();
  await act(() => result.current.mutateAsync(false).catch(() => undefined));
  expect(keys(invalidated)).toEqual([["courses"], ["timetables"]]);
});

test('with "success", a failure refreshes nothing', async () => {
  const { invalidated, wrapper } = setup();
  const { result } = renderHook(
    () => useRefreshingMutation([["calendar-feeds"]], async (ok: boolean) => (ok ? "made" : Promise.reject(new Error("no"))), "success"),
    {
      wrapper,
    },
  );
  await act(() => result.current.mutateAsync(false).catch(() => undefined));
  expect(invalidated).not.toHaveBeenCalled();
  await act(() => result.current.mutateAsync(true));
  expect(keys(invalidated)).toEqual([["calendar-feeds"]]);
});
