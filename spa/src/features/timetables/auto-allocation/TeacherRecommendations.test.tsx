import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach } from "vitest";
import { renderWithProviders } from "@/test/render";
import { TeacherRecommendations } from "./TeacherRecommendations";
import { recommendations, stubFetch } from "./testData";

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => vi.unstubAllGlobals());

const rows = () => screen.getAllByTestId("recommendation");

test("asks for the session's ranking and lists teachers by rank with their badges", async () => {
  const fetch = stubFetch((url) => (url === "/api/timetables/s-1/recommendations" ? { body: recommendations } : undefined));
  renderWithProviders(<TeacherRecommendations sessionId="s-1" selectedTeacherId={null} onSelect={() => {}} />);
  expect(screen.getByTestId("recommendations-loading")).toBeInTheDocument();
  await screen.findByTestId("recommendations");
  expect(fetch).toHaveBeenCalledTimes(1);
  expect(fetch.mock.calls[0][1]?.method ?? "GET").toBe("GET");

  expect(rows().map((r) => r.getAttribute("data-teacher-id"))).toEqual(["t-ann", "t-bob", "t-cat"]);
  const [ann, bob, cat] = rows();
  expect(within(ann).getByText("#1")).toBeInTheDocument();
  expect(within(ann).getByText("Recommended")).toBeInTheDocument();
  expect(within(ann).getByText("Teaches this unit to this group")).toBeInTheDocument();
  expect(within(ann).getByText("31.6%")).toBeInTheDocument();
  expect(within(bob).queryByText("Recommended")).not.toBeInTheDocument();
  expect(within(bob).queryByText("Teaches this unit to this group")).not.toBeInTheDocument();
  expect(within(bob).getByText("60.5%")).toBeInTheDocument();
  expect(within(cat).getByText("#3")).toBeInTheDocument();
  expect(within(cat).getByText("Breaks 2 rules")).toBeInTheDocument();
});

test("each rule is a ✓ or ✗ item with its message; broken rules are marked and red", async () => {
  stubFetch((url) => (url.endsWith("/recommendations") ? { body: recommendations } : undefined));
  renderWithProviders(<TeacherRecommendations sessionId="s-1" selectedTeacherId={null} onSelect={() => {}} />);
  await screen.findByTestId("recommendations");
  const annRules = within(screen.getByRole("list", { name: "Rules for Ann Lee" })).getAllByRole("listitem");
  expect(annRules).toHaveLength(6);
  expect(annRules.every((li) => li.getAttribute("data-met") === "true")).toBe(true);
  expect(annRules.map((li) => li.textContent)).toEqual([
    "Met: Qualified for ICTICT451",
    "Met: Active",
    "Met: Within contract",
    "Met: Available for day sessions",
    "Met: Free at this time",
    "Met: 12 of 38 hours this week",
  ]);

  const catRules = within(screen.getByRole("list", { name: "Rules for Cat Nguyen" })).getAllByRole("listitem");
  const broken = catRules.filter((li) => li.getAttribute("data-met") === "false");
  expect(broken.map((li) => li.getAttribute("data-rule"))).toEqual(["qualified", "no_clash"]);
  expect(broken.map((li) => li.textContent)).toEqual(["Broken: Holds no qualification for ICTICT451", "Broken: Already teaching BG-B 09:00-12:00"]);
  const message = within(broken[1]).getByText("Already teaching BG-B 09:00-12:00", { exact: false });
  expect(message.style.color).toContain("red");
});

test("clicking a row selects its teacher, an ineligible one too; the selected radio is checked", async () => {
  stubFetch((url) => (url.endsWith("/recommendations") ? { body: recommendations } : undefined));
  const onSelect = vi.fn();
  // biome-ignore lint/correctness/noComponentHookFactories: a harness of this test only, made once per test
  function Harness() {
    const [selected, setSelected] = useState<string | null>("t-ann");
    return (
      <TeacherRecommendations
        sessionId="s-1"
        selectedTeacherId={selected}
        onSelect={(id) => {
          onSelect(id);
          setSelected(id);
        }}
      />
    );
  }
  renderWithProviders(<Harness />);
  await screen.findByTestId("recommendations");
  expect(screen.getByRole("radio", { name: "Ann Lee" })).toBeChecked();

  await userEvent.click(within(rows()[2]).getByText("Already teaching BG-B 09:00-12:00", { exact: false }));
  expect(onSelect).toHaveBeenLastCalledWith("t-cat");
  expect(onSelect).toHaveBeenCalledTimes(1);
  expect(screen.getByRole("radio", { name: "Cat Nguyen" })).toBeChecked();
  expect(rows()[2]).toHaveAttribute("data-selected", "true");

  await userEvent.click(screen.getByRole("radio", { name: "Bob Tran" }));
  expect(onSelect).toHaveBeenLastCalledWith("t-bob");
  expect(onSelect).toHaveBeenCalledTimes(2);
  expect(screen.getByRole("radio", { name: "Bob Tran" })).toBeChecked();
});

test("an unknown session shows the server's message", async () => {
  stubFetch(() => ({ status: 404, body: { message: "Timetable session not found" } }));
  renderWithProviders(<TeacherRecommendations sessionId="missing" selectedTeacherId={null} onSelect={() => {}} />);
  expect(await screen.findByText("Timetable session not found")).toBeInTheDocument();
});

test("shows the top five, and every teacher after Show all; a chosen teacher further down stays shown", async () => {
  const base = recommendations.recommendations[1];
  const many = {
    ...recommendations,
    recommendations: Array.from({ length: 8 }, (_, i) => ({ ...base, teacherId: `t-${i + 1}`, teacherName: `Teacher ${i + 1}`, rank: i + 1 })),
  };
  stubFetch((url) => (url.endsWith("/recommendations") ? { body: many } : undefined));
  // biome-ignore lint/correctness/noComponentHookFactories: a harness of this test only, made once per test
  function Harness() {
    const [chosen, setChosen] = useState<string | null>("t-7");
    return <TeacherRecommendations sessionId="s-1" selectedTeacherId={chosen} onSelect={setChosen} />;
  }
  renderWithProviders(<Harness />);
  await screen.findByTestId("recommendations");
  expect(rows().map((r) => r.getAttribute("data-teacher-id"))).toEqual(["t-1", "t-2", "t-3", "t-4", "t-5", "t-7"]);
  await userEvent.click(screen.getByRole("button", { name: "Show all 8 teachers" }));
  expect(rows()).toHaveLength(8);
  await userEvent.click(screen.getByRole("button", { name: "Show the top 5" }));
  expect(rows()).toHaveLength(6);
});
