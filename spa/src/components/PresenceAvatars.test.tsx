import { act, screen } from "@testing-library/react";
import { afterEach } from "vitest";
import { setViewersForTest } from "@/lib/presence";
import { mockFetch } from "@/test/fetchMock";
import { renderWithProviders } from "@/test/render";
import { PresenceAvatars } from "./PresenceAvatars";

afterEach(() => {
  vi.unstubAllGlobals();
  setViewersForTest([]);
});

test("shows the other viewers of the path, once per user, never the signed-in user", async () => {
  mockFetch((url) => (url === "/api/auth/user" ? { body: { user: { id: "me", email: "me@x.au", firstName: "Me", lastName: "", role: "user" } } } : undefined));
  renderWithProviders(<PresenceAvatars path="/block-groups/1" />);
  await act(async () => {
    setViewersForTest([
      { userId: "me", name: "Me Myself", initials: "MM", path: "/block-groups/1" },
      { userId: "u2", name: "Ann Other", initials: "AO", path: "/block-groups/1" },
      { userId: "u2", name: "Ann Other", initials: "AO", path: "/block-groups/1" },
      { userId: "u3", name: "Elsewhere Person", initials: "EP", path: "/timetables" },
    ]);
  });
  expect(await screen.findByRole("group", { name: "Also viewing: Ann Other" })).toBeInTheDocument();
  expect(screen.getByText("AO")).toBeInTheDocument();
  expect(screen.queryByText("EP")).not.toBeInTheDocument();
  await act(async () => setViewersForTest([]));
  expect(screen.queryByRole("group")).not.toBeInTheDocument();
});
