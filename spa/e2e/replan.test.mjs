// Issue 17: a coordinator adds a holiday on a day with classes, reviews the re-plan (the moved session,
// before -> after) and applies it; another coordinator's open timetable shows the session on its new day
// without a reload.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, browserForFile, openTimetable, scheduledGroupAndTeacher, screenshot, seriousA11yViolations, twoCoordinators } from "./lib.mjs";

const RUN = String(Date.now()).slice(-5);
let a;
let b;
let made;

browserForFile(async (browser) => {
  ({ a, b } = await twoCoordinators(browser));
  // Three Thursday classes: 5, 12 and 19 August 2027.
  made = await scheduledGroupAndTeacher(a.page, {
    tag: `RP${RUN}`,
    hours: 9,
    startDate: "2027-08-05",
    day: "Thursday",
    firstName: "Remy",
    lastName: `Replan${RUN}`,
  });
  assert.deepEqual(
    made.sessions.map((s) => s.actualDate),
    ["2027-08-05", "2027-08-12", "2027-08-19"],
  );
});

const dates = (page) => page.getByTestId("session-row").allTextContents();

test("a holiday on a day with classes: review the re-plan, apply it, the other screen follows live", async () => {
  await openTimetable(b.page, made.group.code);
  assert.ok((await dates(b.page)).some((t) => t.includes("12/08/2027")));

  await a.page.goto(`${BASE_URL}/holidays`);
  await a.page.getByRole("button", { name: "Add Holiday" }).click();
  const form = a.page.getByRole("dialog", { name: "Add New Holiday" });
  await form.getByLabel("Name").fill(`Snap closure ${RUN}`);
  await form.getByLabel("Start Date").fill("2027-08-12");
  await form.getByLabel("End Date").fill("2027-08-12");
  await form.getByRole("button", { name: "Create Holiday" }).click();
  await form.waitFor({ state: "hidden" });

  // The impact is said with a way to the review.
  await a.page.getByText(/session of 1 block group falls on this holiday|sessions of \d+ block groups? fall on this holiday/).waitFor();
  await a.page.getByRole("button", { name: "Review re-plan" }).click();
  const review = a.page.getByRole("dialog", { name: "Review re-plan" });
  await review.getByTestId("replan-summary").waitFor();
  const row = review.getByRole("tabpanel", { name: "By block group" }).getByTestId("replan-change").filter({ hasText: made.group.code });
  await row.waitFor();
  const text = await row.textContent();
  assert.match(text, /12\/08\/2027 09:00–12:00/);
  assert.match(text, /26\/08\/2027 09:00–12:00/); // the next free Thursday: the 19th is taken
  assert.match(text, new RegExp(`Falls on Snap closure ${RUN}`));
  assert.deepEqual(await seriousA11yViolations(a.page), []);
  await screenshot(a.page, "replan-review");
  await review.getByRole("button", { name: "Apply re-plan" }).click();
  await review.waitFor({ state: "hidden" });
  await a.page.getByText("Re-plan applied").waitFor();

  // B's timetable, untouched: the session is now on the 26th, none on the 12th.
  await b.page.waitForFunction(
    (code) => {
      const rows = [...document.querySelectorAll('[data-testid="session-row"]')].map((r) => r.textContent).filter((t) => t.includes(code));
      return rows.some((t) => t.includes("26/08/2027")) && !rows.some((t) => t.includes("12/08/2027"));
    },
    made.group.code,
    { timeout: 10000 },
  );
  const shown = (await dates(b.page)).filter((t) => t.includes(made.group.code));
  assert.equal(shown.length, 3);
});
