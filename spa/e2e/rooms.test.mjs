// Rooms as records (ADR 0019; first slice): rooms are records. An administrator adds a room on the Rooms page; a session's
// room typed in another spelling is saved as that room; members read the rooms without the write buttons.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, DEMO, apiCall, browserForFile, openTimetable, scheduledGroupAndTeacher, signedInPage } from "./lib.mjs";
import { captureScreen } from "./platform-helpers.mjs";

const RUN = Date.now().toString().slice(-5);
const shared = browserForFile();

/** Next week on a room's week (the calendar's own button), then waits for that week's sessions. */
async function nextWeek(week) {
  const shown = await week.getByTestId("room-week").getAttribute("data-from");
  await week.getByRole("button", { name: "Next", exact: true }).click();
  await week.locator(`[data-testid="room-week"][data-loaded="true"]:not([data-from="${shown}"])`).waitFor();
}

test("an administrator adds a room; a session's room typed another way is saved as that room", async () => {
  const { context, page } = await signedInPage(shared.browser, DEMO.admin);
  try {
    await page.goto(`${BASE_URL}/organization`);
    await page.getByRole("link", { name: "Manage rooms" }).click();
    await page.getByTestId("room-row").filter({ hasText: "CBD-3.12" }).waitFor();
    await page.getByRole("button", { name: "Add Room" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Room" });
    await dialog.getByLabel("Code").fill(`LAB-${RUN}`);
    await dialog.getByLabel("Name", { exact: true }).fill("Robotics lab");
    await dialog.getByLabel("Capacity").fill("18");
    await dialog.getByLabel("Features").fill("Robot arms, 3D printers");
    await dialog.getByRole("button", { name: "Create Room" }).click();
    await dialog.waitFor({ state: "hidden" });
    const row = page.getByTestId("room-row").filter({ hasText: `LAB-${RUN}` });
    await row.getByText("3D printers").waitFor();
    await captureScreen(page, "rooms");

    const upcoming = (await apiCall(page, "GET", "/api/timetables?hidePast=true")).json.find((s) => s.status !== "cancelled");
    await openTimetable(page, upcoming.blockGroup.code);
    await page
      .getByRole("button", { name: `Edit session ${upcoming.unit.code} ${upcoming.actualDate}` })
      .first()
      .click();
    const form = page.getByRole("dialog", { name: "Edit Timetable Entry" });
    await form.getByLabel("Room", { exact: true }).fill("");
    // The picker lists the recorded rooms with seats and whether they are free at this session's time.
    await page.getByRole("option", { name: new RegExp(`^LAB-${RUN} · Robotics lab · 18 seats · free$`) }).waitFor();
    await form.getByLabel("Room", { exact: true }).fill(`lab ${RUN}`);
    await page.keyboard.press("Escape"); // close the suggestions, not the dialog
    await form.getByRole("button", { name: "Update Entry" }).click();
    await form.waitFor({ state: "hidden" });
    const rooms = (await apiCall(page, "GET", "/api/rooms")).json;
    const mine = rooms.find((r) => r.code === `LAB-${RUN}`);
    const saved = (await apiCall(page, "GET", `/api/timetables/${upcoming.id}`)).json;
    assert.deepEqual([saved.room, saved.roomId], [`LAB-${RUN}`, mine.id]);

    // The room's timetable: from the Rooms page, its session count opens the timetable of that room.
    await page.goto(`${BASE_URL}/rooms`);
    await page.getByRole("link", { name: new RegExp(`timetable of LAB-${RUN}$`) }).click();
    await page.getByTestId("session-row").first().waitFor();
    assert.equal(await page.getByTestId("session-row").count(), 1);
    assert.match(await page.getByTestId("session-row").first().innerText(), new RegExp(`LAB-${RUN}`));
  } finally {
    await context.close();
  }
});

test("a member reads the rooms without the write buttons", async () => {
  const { context, page } = await signedInPage(shared.browser, DEMO.coordinator);
  try {
    await page.goto(`${BASE_URL}/rooms`);
    await page.getByTestId("room-row").first().waitFor();
    assert.equal(await page.getByRole("button", { name: "Add Room" }).count(), 0);
    assert.equal(await page.getByRole("button", { name: /^Edit room/ }).count(), 0);
    // A room's week on the planner's calendar: its sessions of this week, Monday to Sunday, as the API lists them.
    const rooms = (await apiCall(page, "GET", "/api/rooms")).json;
    const lab = rooms.find((r) => r.code === "CBD-3.12");
    const all = (await apiCall(page, "GET", `/api/timetables?roomId=${lab.id}`)).json;
    await page.getByRole("button", { name: "Week of room CBD-3.12" }).click();
    const week = page.getByRole("dialog", { name: "Room CBD-3.12 - week" });
    // The week renders once the room's board is loaded: wait for it before reading its days.
    await week.locator('[data-testid="room-week"][data-loaded="true"]').waitFor();
    const days = await week.locator("td.fc-timegrid-col[data-date]").evaluateAll((els) => els.map((e) => e.getAttribute("data-date")));
    assert.equal(days.length, 7);
    assert.equal(await week.getByTestId("room-week").getAttribute("data-from"), days[0]);
    const expected = all.filter((x) => x.actualDate >= days[0] && x.actualDate <= days[6]);
    await page.waitForFunction(([n]) => document.querySelectorAll('[data-testid="room-week"] .bp-session').length === n, [expected.length], { timeout: 10000 });
    for (const x of expected) {
      await week.locator(`td.fc-timegrid-col[data-date="${x.actualDate}"] [data-session-id="${x.id}"]`).waitFor();
    }
    await nextWeek(week);
    assert.notEqual(await week.getByTestId("room-week").getAttribute("data-from"), days[0]);
    await page.keyboard.press("Escape");
    await week.waitFor({ state: "hidden" });

    // Anyone can subscribe to a room's timetable in their calendar.
    await page.getByRole("button", { name: "Subscribe to room CBD-3.12 in calendar" }).click();
    const dialog = page.getByRole("dialog", { name: "Subscribe in calendar - room CBD-3.12" });
    await dialog.getByRole("button", { name: "Create subscription link" }).click();
    const url = await dialog.getByLabel("Subscription URL", { exact: true }).inputValue();
    const ics = await fetch(url);
    assert.equal(ics.status, 200);
    const body = await ics.text();
    assert.match(body, /X-WR-CALNAME:Room CBD-3\.12 timetable/);
    assert.match(body, /BEGIN:VEVENT/);
  } finally {
    await context.close();
  }
});

test("the Reports page's Room Utilisation: booked hours against available hours, and its export", async () => {
  const { context, page } = await signedInPage(shared.browser, DEMO.admin);
  try {
    const report = (await apiCall(page, "GET", "/api/reports/room-utilisation")).json;
    await page.goto(`${BASE_URL}/reports`);
    await page.getByRole("tab", { name: "Room Utilisation" }).click();
    const table = page.getByTestId("room-utilisation");
    await table.locator("tbody tr").first().waitFor();
    assert.equal(await table.locator("tbody tr").count(), report.rooms.length);
    const lab = report.rooms.find((r) => r.code === "CBD-3.12");
    assert.ok(lab.bookedHours > 0, "the demo's cyber lab is booked");
    await table.getByRole("progressbar", { name: `CBD-3.12 utilisation ${lab.utilisationPercent}%` }).waitFor();
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    assert.match((await download).suggestedFilename(), /^room-utilisation-\d{4}\.csv$/);
    await captureScreen(page, "reports-room-utilisation");
  } finally {
    await context.close();
  }
});

test("a coordinator's room week updates live, and picking a booked room shows the clash", async () => {
  const admin = await signedInPage(shared.browser, DEMO.admin);
  const coord = await signedInPage(shared.browser, DEMO.coordinator);
  try {
    const code = `LIVE-${RUN}`;
    const made = await apiCall(admin.page, "POST", "/api/rooms", { code, name: "Live lab", capacity: 30, type: "computer_lab" });
    assert.equal(made.status, 201);
    // Two upcoming sessions of different groups at the same date and time.
    const upcoming = (await apiCall(admin.page, "GET", "/api/timetables?hidePast=true")).json.filter((s) => s.status !== "cancelled");
    let pair = null;
    for (const a of upcoming) {
      const b = upcoming.find((x) => x.actualDate === a.actualDate && x.startTime === a.startTime && x.blockGroupId !== a.blockGroupId);
      if (b) {
        pair = [a, b];
        break;
      }
    }
    assert.ok(pair, "the demo has two groups taught at the same time");
    const [first, second] = pair;

    // The coordinator watches the room's week holding that date.
    await coord.page.goto(`${BASE_URL}/rooms`);
    await coord.page.getByRole("button", { name: `Week of room ${code}` }).click();
    const week = coord.page.getByRole("dialog", { name: `Room ${code} - week` });
    await week.locator('[data-testid="room-week"][data-loaded="true"]').waitFor();
    for (let i = 0; i < 8 && !(await week.locator(`td.fc-timegrid-col[data-date="${first.actualDate}"]`).count()); i++) await nextWeek(week);
    const day = week.locator(`td.fc-timegrid-col[data-date="${first.actualDate}"]`);
    assert.equal(await day.locator(".bp-session").count(), 0, "the new room is free that day");

    // The administrator books the first session into the room: the coordinator's week shows it, no reload.
    const fresh = (await apiCall(admin.page, "GET", `/api/timetables/${first.id}`)).json;
    const put = await admin.page.evaluate(
      async ({ id, body, etag }) => {
        const token = document.cookie.match(/csrftoken=([^;]+)/)?.[1] ?? "";
        const r = await fetch(`/api/timetables/${id}`, {
          method: "PUT",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": token, "If-Match": etag },
          body: JSON.stringify(body),
        });
        return r.status;
      },
      {
        id: first.id,
        etag: fresh.updatedAt,
        body: {
          blockGroupId: fresh.blockGroupId,
          unitId: fresh.unitId,
          teacherId: fresh.teacherId,
          weekNumber: fresh.weekNumber,
          dayOfWeek: fresh.dayOfWeek,
          startTime: fresh.startTime,
          endTime: fresh.endTime,
          room: code,
          actualHours: fresh.actualHours,
          status: fresh.status,
          notes: fresh.notes,
          actualDate: fresh.actualDate,
        },
      },
    );
    assert.equal(put, 200);
    await day.locator(`.bp-session[data-session-id="${first.id}"]`).filter({ hasText: first.blockGroup.code }).waitFor({ timeout: 10000 });
    await coord.page.keyboard.press("Escape");
    await week.waitFor({ state: "hidden" });

    // The coordinator picks the room for the other group's session at that time: booked, and refused.
    await openTimetable(coord.page, second.blockGroup.code); // upcoming sessions first: the row is in view
    await coord.page
      .getByRole("button", { name: `Edit session ${second.unit.code} ${second.actualDate}` })
      .first()
      .click();
    const form = coord.page.getByRole("dialog", { name: "Edit Timetable Entry" });
    await form.getByLabel("Room", { exact: true }).fill("");
    await coord.page.getByRole("option", { name: new RegExp(`^${code} · Live lab · 30 seats · booked: ${first.blockGroup.code}`) }).waitFor();
    await form.getByLabel("Room", { exact: true }).fill(code);
    await coord.page.keyboard.press("Escape");
    await form.getByRole("button", { name: "Update Entry" }).click();
    const clash = form.getByTestId("conflict-alert");
    await clash.waitFor();
    assert.match(await clash.innerText(), new RegExp(`Room ${code} is booked twice on ${second.actualDate}`));
    await captureScreen(coord.page, "rooms-clash");
  } finally {
    await admin.context.close();
    await coord.context.close();
  }
});

test("Set Room for the selected sessions: the picker says which rooms are free at their times; a booked one is refused", async () => {
  const { context, page } = await signedInPage(shared.browser, DEMO.coordinator);
  try {
    // Two fresh groups taught at the same times (two 3-hour Thursdays each), and two fresh rooms.
    const sameTimes = { hours: 6, startDate: "2027-03-04", day: "Thursday", lastName: `Rooms${RUN}` };
    const mine = await scheduledGroupAndTeacher(page, { ...sameTimes, tag: `BRA${RUN}`, firstName: "Bea" });
    const theirs = await scheduledGroupAndTeacher(page, { ...sameTimes, tag: `BRB${RUN}`, firstName: "Ben" });
    const admin = await signedInPage(shared.browser, DEMO.admin);
    const busy = (await apiCall(admin.page, "POST", "/api/rooms", { code: `BUSY-${RUN}`, name: "Busy lab", capacity: 20, type: "computer_lab" })).json;
    await apiCall(admin.page, "POST", "/api/rooms", { code: `FREE-${RUN}`, name: "Free lab", capacity: 20, type: "computer_lab" });
    await admin.context.close();
    // The other group's first Thursday is in the busy lab.
    const booked = await apiCall(page, "PUT", "/api/timetables/bulk-room", { sessionIds: [theirs.sessions[0].id], roomId: busy.id });
    assert.equal(booked.status, 200, booked.text);

    await openTimetable(page, mine.group.code);
    await page.getByRole("checkbox", { name: "Select all sessions" }).check();
    await page.getByRole("button", { name: "Set Room" }).click();
    const dialog = page.getByRole("dialog", { name: "Set Room" });
    await dialog.getByText("2 session(s) selected.").waitFor();
    await dialog.getByRole("combobox", { name: "Room" }).click();
    await page.getByRole("option", { name: `FREE-${RUN} · Free lab · 20 seats · free` }).waitFor();
    // A booked room cannot be picked (ADR 0018): it is shown disabled with what holds it; the server
    // still refuses it (the clash), as the API test of bulk-room checks.
    const busyOption = page.getByRole("option", { name: new RegExp(`^BUSY-${RUN} · Busy lab · 20 seats · booked for 1 of 2: BRB${RUN}-G`) });
    await busyOption.waitFor();
    assert.equal(await busyOption.getAttribute("aria-disabled"), "true");
    const refused = await apiCall(page, "PUT", "/api/timetables/bulk-room", { sessionIds: mine.sessions.map((s) => s.id), roomId: busy.id });
    assert.equal(refused.status, 409, refused.text);
    assert.match(refused.text, new RegExp(`Room BUSY-${RUN} is booked twice`));

    await page.getByRole("option", { name: new RegExp(`^FREE-${RUN} `) }).click();
    await dialog.getByRole("button", { name: "Set Room" }).click();
    await dialog.waitFor({ state: "hidden" });
    // Both rows show the room (the list patches itself from the change event), and the server agrees.
    await page.waitForFunction(
      ([code]) => [...document.querySelectorAll('[data-testid="session-row"]')].filter((r) => r.textContent.includes(code)).length === 2,
      [`FREE-${RUN}`],
      { timeout: 10000 },
    );
    const saved = (await apiCall(page, "GET", `/api/timetables?blockGroupId=${mine.group.id}`)).json.filter((s) => s.status !== "cancelled");
    assert.deepEqual([...new Set(saved.map((s) => s.room))], [`FREE-${RUN}`]);
  } finally {
    await context.close();
  }
});
