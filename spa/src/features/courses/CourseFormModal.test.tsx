import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { jsonBody, mockFetch } from "@/test/fetchMock";
import { renderWithProviders } from "@/test/render";
import { CourseFormModal } from "./components/CourseFormModal";

describe("CourseFormModal", () => {
  it("shows the create title and requires code and name", async () => {
    renderWithProviders(<CourseFormModal opened onClose={() => {}} />);
    expect(await screen.findByText("Create New Course")).toBeInTheDocument();
    expect(screen.getByPlaceholderText("e.g. ICT30120")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Create Course" }));
    expect(await screen.findByText("Code is required")).toBeInTheDocument();
    expect(screen.getByText("Name is required")).toBeInTheDocument();
  });
});

describe("CourseFormModal after a 412 (ADR 0017)", () => {
  const opened = {
    id: "c-1",
    code: "ICT30120",
    name: "Certificate III in IT",
    level: "certificate_iii",
    description: "Old text",
    isActive: true,
    updatedAt: "2026-11-01T00:00:00Z",
  };
  const theirs = { ...opened, name: "Certificate III in Information Technology", description: "Their text", updatedAt: "2026-11-02T00:00:00Z" };

  function stage() {
    const puts: { ifMatch: string | null; body: Record<string, unknown> }[] = [];
    const fetch = mockFetch((url, init) => {
      if (url === "/api/courses/c-1" && init.method === "PUT") {
        const ifMatch = new Headers(init.headers).get("If-Match");
        puts.push({ ifMatch, body: jsonBody(init) as Record<string, unknown> });
        if (ifMatch !== theirs.updatedAt) return { status: 412, body: { message: "Changed by someone else", type: "stale" } };
        return { body: { ...theirs, ...(jsonBody(init) as object), updatedAt: "2026-11-03T00:00:00Z" } };
      }
      if (url === "/api/courses/c-1") return { body: theirs };
      return undefined;
    });
    const onClose = vi.fn();
    renderWithProviders(<CourseFormModal opened onClose={onClose} course={opened as never} />);
    return { puts, fetch, onClose };
  }

  it("keeps the typing, takes what only they changed, shows the clash and saves mine with the fresh If-Match", async () => {
    const { puts, onClose } = stage();
    const name = await screen.findByLabelText(/^Name/);
    await userEvent.clear(name);
    await userEvent.type(name, "My name");
    await userEvent.click(screen.getByRole("button", { name: "Update Course" }));

    const alert = await screen.findByTestId("stale-alert");
    expect(alert).toHaveTextContent("Your changes are kept. Their changes to Description are now in the form.");
    const rows = within(screen.getByTestId("stale-fields")).getAllByRole("row").slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole("cell")
          .map((c) => c.textContent),
      ),
    ).toEqual([["Name", "Certificate III in Information Technology", "My name"]]);
    expect(name).toHaveValue("My name");
    expect(screen.getByLabelText("Description")).toHaveValue("Their text");

    await userEvent.click(within(alert).getByRole("button", { name: "Keep mine" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(puts.map((p) => p.ifMatch)).toEqual([opened.updatedAt, theirs.updatedAt]);
    expect(puts[1].body).toMatchObject({ name: "My name", description: "Their text" });
  });

  it("Use theirs puts their values in the clashing fields and saves nothing until asked", async () => {
    const { puts } = stage();
    const name = await screen.findByLabelText(/^Name/);
    await userEvent.clear(name);
    await userEvent.type(name, "My name");
    await userEvent.click(screen.getByRole("button", { name: "Update Course" }));
    const alert = await screen.findByTestId("stale-alert");
    await userEvent.click(within(alert).getByRole("button", { name: "Use theirs" }));
    expect(screen.queryByTestId("stale-alert")).not.toBeInTheDocument();
    expect(name).toHaveValue("Certificate III in Information Technology");
    expect(puts).toHaveLength(1);
  });
});
