import { Notifications, notifications } from "@mantine/notifications";
import { QueryClient } from "@tanstack/react-query";
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach } from "vitest";
import { roots } from "@/lib/queryKeys";
import { renderWithProviders } from "@/test/render";
import { SuggestAllocationButton } from "./SuggestAllocationButton";
import { SuggestAllocationDialog } from "./SuggestAllocationDialog";
import { bodyOf, emptyProposal, proposal, stubFetch } from "./testData";

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => {
  act(() => notifications.clean());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const URL_ = "/api/timetables/auto-allocate";
const scope = { blockGroupId: "bg-1", start: "2026-03-02", end: "2026-03-08" };

function open(onClose = vi.fn()) {
  renderWithProviders(
    <>
      <Notifications />
      <SuggestAllocationDialog opened onClose={onClose} scope={scope} />
    </>,
  );
  return onClose;
}

test("shows the loading state, then the proposal: badges, figures, both tabs and the reasons", async () => {
  const fetch = stubFetch((url, init) => (url === URL_ && bodyOf(init).apply === false ? { body: proposal, delayMs: 30 } : undefined));
  open();
  expect(await screen.findByText("Finding the best allocation…")).toBeInTheDocument();
  const summary = await screen.findByTestId("proposal-summary");
  expect(fetch).toHaveBeenCalledTimes(1);
  expect(fetch.mock.calls[0][1]?.method).toBe("POST");
  expect(bodyOf(fetch.mock.calls[0][1])).toEqual({ ...scope, apply: false });

  expect(within(summary).getByText("3 sessions in scope")).toBeInTheDocument();
  expect(within(summary).getByText("2 assigned")).toBeInTheDocument();
  expect(within(summary).getByText("1 cannot be allocated")).toBeInTheDocument();
  expect(within(summary).getByText("Optimal · 1.2 s")).toBeInTheDocument();

  expect(screen.getByRole("group", { name: "Continuity: 50% before, 100% after" })).toBeInTheDocument();
  expect(screen.getByRole("group", { name: "Highest weekly utilisation: 40% before, 55.5% after" })).toBeInTheDocument();
  expect(screen.getByRole("group", { name: "Mean weekly utilisation: 12.5% before, 20.1% after" })).toBeInTheDocument();

  // By teacher (the default tab): teacher, sessions, hours.
  const byTeacher = screen.getByRole("table", { name: "Proposal by teacher" });
  const teacherRows = within(byTeacher).getAllByRole("row").slice(1);
  expect(
    teacherRows.map((r) =>
      within(r)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ),
  ).toEqual([
    ["Ann Lee", "1", "3"],
    ["Bob Tran", "1", "2.5"],
  ]);

  // By session: date en-AU, time, block group, unit, teacher.
  await userEvent.click(screen.getByRole("tab", { name: "By session (2)" }));
  const bySession = await screen.findByRole("table", { name: "Proposal by session" });
  const sessionRows = within(bySession).getAllByRole("row").slice(1);
  expect(
    within(sessionRows[0])
      .getAllByRole("cell")
      .map((c) => c.textContent),
  ).toEqual(["02/03/2026", "09:00–12:00", "BG-A", "ICTICT451", "Ann Lee"]);
  expect(
    within(sessionRows[1])
      .getAllByRole("cell")
      .map((c) => c.textContent),
  ).toEqual(["03/03/2026", "13:00–15:30", "BG-A", "ICTPRG302", "Bob Tran"]);

  // Cannot be allocated, with the reason.
  expect(screen.getByRole("heading", { name: "Cannot be allocated (1)" })).toBeInTheDocument();
  const blocked = screen.getByRole("table", { name: "Sessions that cannot be allocated" });
  expect(within(blocked).getByText("No teacher qualified for ICTSAS305 is available for evening sessions")).toBeInTheDocument();
  expect(within(blocked).getByText("04/03/2026")).toBeInTheDocument();
  expect(within(blocked).getByText("18:00–21:00")).toBeInTheDocument();
});

test("Apply allocation sends the proposal's version and assignments, toasts, refreshes and closes", async () => {
  const applied = { ...proposal, applied: true, status: "APPLIED", version: "v-2222" };
  const fetch = stubFetch((url, init) => {
    if (url !== URL_) return undefined;
    return bodyOf(init).apply ? { body: applied } : { body: proposal };
  });
  const invalidate = vi.spyOn(QueryClient.prototype, "invalidateQueries");
  const onClose = open();
  await userEvent.click(await screen.findByRole("button", { name: "Apply allocation" }));
  await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));

  expect(fetch).toHaveBeenCalledTimes(2);
  expect(bodyOf(fetch.mock.calls[1][1])).toEqual({
    ...scope,
    apply: true,
    version: "v-1111",
    assignments: [
      { sessionId: "s-1", teacherId: "t-ann" },
      { sessionId: "s-2", teacherId: "t-bob" },
    ],
  });
  expect(await screen.findByText("Teachers allocated")).toBeInTheDocument();
  expect(screen.getByText("2 sessions allocated.")).toBeInTheDocument();
  const keys = invalidate.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
  for (const root of [roots.timetables, roots.dashboard, roots.allocationGrid, roots.reports]) expect(keys).toContain(JSON.stringify(root));
});

test("a 412 says the timetable changed, blocks applying and offers a new suggestion", async () => {
  let proposals = 0;
  const fetch = stubFetch((url, init) => {
    if (url !== URL_) return undefined;
    if (bodyOf(init).apply) return { status: 412, body: { message: "The timetable changed since this proposal was made.", type: "stale" } };
    proposals += 1;
    return { body: proposals === 1 ? proposal : { ...proposal, version: "v-3333", sessionsInScope: 2, unassignable: [] } };
  });
  const onClose = open();
  await userEvent.click(await screen.findByRole("button", { name: "Apply allocation" }));
  const title = await screen.findByText("The timetable changed since this suggestion was made");
  const alert = title.closest<HTMLElement>("[role=alert]")!;
  expect(within(alert).getByText("Nothing was changed. Make a new suggestion and review it before applying.")).toBeInTheDocument();
  expect(screen.getByRole("button", { name: "Apply allocation" })).toBeDisabled();
  expect(onClose).not.toHaveBeenCalled();

  await userEvent.click(within(alert).getByRole("button", { name: "Suggest again" }));
  expect(await screen.findByText("2 sessions in scope")).toBeInTheDocument();
  expect(screen.queryByText("The timetable changed since this suggestion was made")).not.toBeInTheDocument();
  expect(fetch).toHaveBeenCalledTimes(3);
  expect(bodyOf(fetch.mock.calls[2][1])).toEqual({ ...scope, apply: false });
  expect(screen.getByRole("button", { name: "Apply allocation" })).toBeEnabled();
});

test("an empty selection says every session already has a teacher", async () => {
  stubFetch((url) => (url === URL_ ? { body: emptyProposal } : undefined));
  open();
  expect(await screen.findByText("Every session in this selection already has a teacher.")).toBeInTheDocument();
  expect(screen.queryByRole("button", { name: "Apply allocation" })).not.toBeInTheDocument();
});

test("a refused proposal shows the server's message", async () => {
  stubFetch((url) =>
    url === URL_
      ? {
          status: 400,
          body: {
            message: "Validation failed",
            type: "validation_error",
            errors: [{ path: ["scope"], message: "Choose sessions, a block group, or a start and end date" }],
          },
        }
      : undefined,
  );
  open();
  expect(await screen.findByText("No suggestion could be made")).toBeInTheDocument();
  expect(screen.getByText("Choose sessions, a block group, or a start and end date")).toBeInTheDocument();
});

test("the button opens the dialog and asks for nothing until clicked", async () => {
  const fetch = stubFetch((url) => (url === URL_ ? { body: proposal } : undefined));
  renderWithProviders(<SuggestAllocationButton scope={{ sessionIds: ["s-1", "s-2"] }} />);
  expect(fetch).not.toHaveBeenCalled();
  await userEvent.click(screen.getByRole("button", { name: "Suggest allocation" }));
  expect(await screen.findByRole("dialog", { name: "Suggest allocation" })).toBeInTheDocument();
  await screen.findByTestId("proposal-summary");
  expect(bodyOf(fetch.mock.calls[0][1])).toEqual({ sessionIds: ["s-1", "s-2"], apply: false });
});

test("a disabled button cannot open the dialog", () => {
  stubFetch(() => undefined);
  renderWithProviders(<SuggestAllocationButton scope={{}} disabled />);
  expect(screen.getByRole("button", { name: "Suggest allocation" })).toBeDisabled();
});
