// The planner board (docs/adr/0026-planner-board.md) in real Chromium, two coordinators in two contexts:
// a drag to a free slot is saved and shows live on the other board; a drag onto the teacher's clash is
// shaded while dragging, refused on drop and put back with the reason; a resize; an assignment by dropping
// a session on a teacher (that teacher's clashes shaded while over them); presence and a held card; a
// keyboard move; a print preview of a term; a crowded day's "+n more"; axe in light and dark, desktop and
// phone.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  BASE_URL,
  apiCall,
  browserForFile,
  newPage,
  apiLogin,
  DEMO,
  screenshot,
  screenshotAndAudit,
  scheduledGroupAndTeacher,
  twoCoordinators,
} from "./lib.mjs";

const RUN = String(Date.now()).slice(-5);
let a;
let b;
let made; // the board's group: Tuesdays 09:00-12:00 from 2027-02-02, teacher Riley (qualified)
let other; // another group: Wednesdays 09:00-12:00 from 2027-02-03, its first session taught by Morgan
let s1; // made's first session (Tue 2027-02-02), taught by Morgan
let s2; // made's second session (Tue 2027-02-09), unassigned

const must = (r, status) => {
  assert.equal(r.status, status, r.text);
  return r.json;
};

async function row(page, id) {
  return must(await apiCall(page, "GET", `/api/timetables/${id}`), 200);
}

/** PUT the session with `changes`, If-Match its current updatedAt. */
async function putSession(page, id, changes) {
  const r = await row(page, id);
  const body = {
    blockGroupId: r.blockGroupId,
    unitId: r.unitId,
    teacherId: r.teacherId,
    room: r.room,
    actualDate: r.actualDate,
    startTime: r.startTime,
    endTime: r.endTime,
    status: r.status,
    notes: r.notes,
    ...changes,
  };
  const answer = await page.evaluate(
    async ({ id, body, etag }) => {
      const token = document.cookie.match(/csrftoken=([^;]+)/)?.[1] ?? "";
      const res = await fetch(`/api/timetables/${id}`, {
        method: "PUT",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": token, "If-Match": etag },
        body: JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    },
    { id, body, etag: r.updatedAt },
  );
  assert.equal(answer.status, 200, answer.text);
}

browserForFile(async (browser) => {
  ({ a, b } = await twoCoordinators(browser));
  made = await scheduledGroupAndTeacher(a.page, {
    tag: `BRD${RUN}`,
    hours: 12,
    startDate: "2027-02-01",
    day: "Tuesday",
    firstName: "Riley",
    lastName: `Board${RUN}`,
  });
  other = await scheduledGroupAndTeacher(a.page, {
    tag: `BRX${RUN}`,
    hours: 6,
    startDate: "2027-02-01",
    day: "Wednesday",
    firstName: "Morgan",
    lastName: `Clash${RUN}`,
  });
  for (const teacher of [made.teacher, other.teacher]) {
    must(await apiCall(a.page, "POST", "/api/teacher-units", { teacherId: teacher.id, unitId: made.unit.id }), 201);
  }
  [s1, s2] = made.sessions;
  assert.equal(s1.actualDate, "2027-02-02");
  assert.equal(s2.actualDate, "2027-02-09");
  await putSession(a.page, other.sessions[0].id, { teacherId: other.teacher.id });
  await putSession(a.page, s1.id, { teacherId: other.teacher.id });
});

const boardUrl = (date, view = "week") => `${BASE_URL}/planner/block-group/${made.group.id}?view=${view}&date=${date}`;

async function openBoard(page, date, view = "week") {
  await page.goto(boardUrl(date, view));
  await page.locator('[data-testid="board-calendar"][data-loaded="true"]').waitFor();
}

const toast = (page, title) => page.locator(".mantine-Notification-title").getByText(title, { exact: true });
const card = (page, id) => page.locator(`[data-session-id="${id}"]:not(.fc-event-mirror)`).first();
const column = (page, date) => page.locator(`td.fc-timegrid-col[data-date="${date}"]`);

/** The point in the week view at `date` and `time` (HH:MM), a few pixels into the slot. */
async function slotPoint(page, date, time) {
  const col = await column(page, date).boundingBox();
  const lane = await page.locator(`td.fc-timegrid-slot-lane[data-time="${time}:00"]`).boundingBox();
  return { x: col.x + col.width / 2, y: lane.y + 6 };
}

/** Presses the mouse near the top of the session's card and moves to `to`; releases unless `hold`. */
async function drag(page, id, to, { hold = false } = {}) {
  const box = await card(page, id).boundingBox();
  const from = { x: box.x + box.width / 2, y: box.y + 6 };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 4, from.y + 4, { steps: 3 });
  await page.mouse.move(to.x, to.y, { steps: 15 });
  if (!hold) await page.mouse.up();
  return from;
}

test("a drag to a free slot is saved and shows on the other coordinator's board without reload", async () => {
  await Promise.all([openBoard(a.page, "2027-02-01"), openBoard(b.page, "2027-02-01")]);
  await column(b.page, "2027-02-02").locator(`[data-session-id="${s1.id}"]`).waitFor();
  await drag(a.page, s1.id, await slotPoint(a.page, "2027-02-04", "13:00"));
  await toast(a.page, "Session moved").waitFor();
  const saved = await row(a.page, s1.id);
  assert.equal(saved.actualDate, "2027-02-04");
  assert.equal(saved.startTime, "13:00:00");
  assert.equal(saved.endTime, "16:00:00");
  // No reload on B: the change event refetches its board.
  await column(b.page, "2027-02-04").locator(`[data-session-id="${s1.id}"]`).waitFor({ timeout: 10000 });
  await screenshot(b.page, "board-live-move");
});

test("a drag onto the teacher's clash is shaded while dragging, refused on drop and put back with the reason", async () => {
  await openBoard(a.page, "2027-02-01");
  await drag(a.page, s1.id, await slotPoint(a.page, "2027-02-03", "09:00"), { hold: true });
  // Morgan teaches the other group on Wednesday 09:00-12:00: that slot is shaded from the conflict index.
  await column(a.page, "2027-02-03").locator(".bp-blocked").first().waitFor();
  await screenshot(a.page, "board-clash-shaded");
  await a.page.mouse.up();
  await toast(a.page, "Move refused").waitFor();
  const message = await a.page.locator(".mantine-Notification-root").filter({ hasText: "Move refused" }).innerText();
  assert.match(message, /Morgan/, message);
  await column(a.page, "2027-02-04").locator(`[data-session-id="${s1.id}"]`).waitFor();
  assert.equal(await column(a.page, "2027-02-03").locator(`[data-session-id="${s1.id}"]`).count(), 0);
  assert.equal((await row(a.page, s1.id)).actualDate, "2027-02-04");
});

test("resizing a session changes its end time", async () => {
  await openBoard(a.page, "2027-02-01");
  const target = card(a.page, s1.id);
  await target.hover();
  const handle = target.locator(".fc-event-resizer-end");
  const box = await handle.boundingBox();
  // Grab the handle's top (inside the card's last slot, 15:30) and let go in the middle of the 16:30 slot.
  const lane = await a.page.locator('td.fc-timegrid-slot-lane[data-time="16:30:00"]').boundingBox();
  const x = box.x + box.width / 2;
  const y = box.y + 1;
  const inLast = await a.page.evaluate(
    ({ x, y }) => document.elementsFromPoint(x, y).some((el) => el.matches?.('td.fc-timegrid-slot-lane[data-time="15:30:00"]')),
    { x, y },
  );
  assert.ok(inLast, "the handle's top is in the 15:30 slot");
  await a.page.mouse.move(x, y);
  await a.page.mouse.down();
  await a.page.mouse.move(x, y + 4, { steps: 3 });
  await a.page.mouse.move(x, lane.y + lane.height / 2, { steps: 10 });
  await a.page.mouse.up();
  await toast(a.page, "Session moved").waitFor();
  const saved = await row(a.page, s1.id);
  assert.equal(saved.startTime, "13:00:00");
  assert.equal(saved.endTime, "17:00:00");
});

test("dragging an unassigned session over a teacher of the side list shades that teacher's clashes; dropping it there assigns it", async () => {
  // Morgan teaches the other group on Wednesday 2027-02-10 09:00-12:00; Riley teaches nothing that week.
  const wednesday = other.sessions[1];
  assert.equal(wednesday.actualDate, "2027-02-10");
  await putSession(a.page, wednesday.id, { teacherId: other.teacher.id });
  await openBoard(a.page, "2027-02-08");
  const from = await card(a.page, s2.id).boundingBox();
  await a.page.mouse.move(from.x + from.width / 2, from.y + 6);
  await a.page.mouse.down();
  await a.page.mouse.move(from.x + from.width / 2 + 4, from.y + 10, { steps: 3 });
  const teacherClash = column(a.page, "2027-02-10").locator('.bp-blocked[title^="The teacher already teaches"]');
  const shadingFor = a.page.getByTestId("board-shading-for");
  // Over Morgan: the calendar shades where s2 would clash if Morgan taught it.
  const morgan = a.page.locator("[data-teacher-drop]").filter({ hasText: `Morgan Clash${RUN}` });
  await morgan.waitFor(); // the side list of the qualified teachers loads for the dragged session
  let box = await morgan.boundingBox();
  await a.page.mouse.move(box.x + box.width / 3, box.y + box.height / 2, { steps: 15 });
  await teacherClash.first().waitFor();
  assert.match(await teacherClash.first().getAttribute("title"), new RegExp(`${other.group.code} ${other.unit.code} 09:00`));
  await shadingFor.getByText(`if Morgan Clash${RUN} taught it`).waitFor();
  assert.equal(
    await a.page
      .locator(".bp-candidate")
      .filter({ hasText: `Morgan Clash${RUN}` })
      .count(),
    1,
  );
  // Over Riley: no teacher clash that week.
  const target = a.page.locator("[data-teacher-drop]").filter({ hasText: `Riley Board${RUN}` });
  box = await target.boundingBox();
  await a.page.mouse.move(box.x + box.width / 3, box.y + box.height / 2, { steps: 10 });
  await shadingFor.getByText(`if Riley Board${RUN} taught it`).waitFor();
  assert.equal(await teacherClash.count(), 0);
  await a.page.mouse.up();
  await toast(a.page, "Session assigned").waitFor();
  assert.equal((await row(a.page, s2.id)).teacherId, made.teacher.id);
  assert.equal((await row(a.page, s2.id)).actualDate, "2027-02-09");
  // The drag is over: nothing stays shaded.
  await a.page.locator(".bp-blocked-band").first().waitFor({ state: "detached" });
  assert.equal(await shadingFor.innerText(), "");
});

test("two coordinators see each other on the board, and a card the other drags shows as held", async () => {
  await Promise.all([openBoard(a.page, "2027-02-08"), openBoard(b.page, "2027-02-08")]);
  await a.page.getByTestId("board-presence").getByText("Sam Papadopoulos is viewing").waitFor({ timeout: 10000 });
  const start = await drag(b.page, s2.id, await slotPoint(b.page, "2027-02-11", "10:00"), { hold: true });
  await a.page.locator(`.bp-held[data-session-id="${s2.id}"]`).waitFor({ timeout: 10000 });
  await a.page.getByTestId("board-presence").getByText(`Sam Papadopoulos is moving ${made.unit.code} Tue 09:00`).waitFor();
  assert.match(await card(a.page, s2.id).innerText(), /Held by Sam Papadopoulos/);
  await screenshot(a.page, "board-held");
  // B lets go where it started: nothing changes, and the card is free again on A.
  await b.page.mouse.move(start.x, start.y, { steps: 10 });
  await b.page.mouse.up();
  await a.page.locator(`.bp-held[data-session-id="${s2.id}"]`).waitFor({ state: "detached", timeout: 10000 });
  assert.equal((await row(a.page, s2.id)).actualDate, "2027-02-09");
});

test("a focused session moves with the arrow keys and Enter, and Undo in the toast puts it back", async () => {
  await openBoard(a.page, "2027-02-08");
  await card(a.page, s2.id).focus();
  await a.page.keyboard.press("ArrowRight");
  await a.page.keyboard.press("ArrowDown");
  await column(a.page, "2027-02-10").locator(`[data-session-id="${s2.id}"]`).waitFor();
  await a.page.keyboard.press("Enter");
  await toast(a.page, "Session moved").waitFor();
  const saved = await row(a.page, s2.id);
  assert.equal(saved.actualDate, "2027-02-10");
  assert.equal(saved.startTime, "09:30:00");
  assert.equal(saved.endTime, "12:30:00");
  // The toast's Undo puts it back (the history's undo of that write).
  await a.page.getByTestId("toast-undo").click();
  await toast(a.page, "Change undone").waitFor();
  const undone = await row(a.page, s2.id);
  assert.equal(undone.actualDate, "2027-02-09");
  assert.equal(undone.startTime, "09:00:00");
  await column(a.page, "2027-02-09").locator(`[data-session-id="${s2.id}"]`).waitFor({ timeout: 10000 });
});

test("a term prints as a clean timetable", async () => {
  await openBoard(a.page, "2027-02-01", "term");
  await a.page.locator(`[data-session-id="${s2.id}"]`).first().waitFor();
  await a.page.emulateMedia({ media: "print" });
  try {
    assert.equal(await a.page.locator(".mantine-AppShell-navbar").isVisible(), false);
    assert.equal(await a.page.locator(".bp-side").isVisible(), false);
    assert.equal(await a.page.locator(".fc-button").first().isVisible(), false);
    assert.ok(await a.page.locator(`[data-session-id="${s1.id}"]`).first().isVisible());
    await screenshot(a.page, "board-print-term");
  } finally {
    await a.page.emulateMedia({ media: "screen" });
  }
});

test("the rooms screen links each campus to its board, and a room's week to the room's and its campus's boards", async () => {
  const campus = must(await apiCall(a.page, "GET", "/api/campuses"), 200)[0];
  assert.ok(campus, "the demo organization has a campus");
  await a.page.goto(`${BASE_URL}/rooms`);
  await a.page
    .getByRole("link", { name: `Open the planner board of campus ${campus.name}`, exact: true })
    .first()
    .click();
  await a.page.waitForURL(`${BASE_URL}/planner/campus/${campus.id}`);
  await a.page.locator('[data-testid="board-calendar"][data-loaded="true"]').waitFor();
  await a.page.getByRole("heading", { name: `Planner: ${campus.name}` }).waitFor();

  const room = must(await apiCall(a.page, "GET", "/api/rooms"), 200).find((r) => r.isActive && r.campusId === campus.id);
  assert.ok(room, "the campus has an active room");
  await a.page.goto(`${BASE_URL}/rooms`);
  await a.page.getByRole("textbox", { name: "Search rooms" }).fill(room.code);
  await a.page
    .getByRole("button", { name: `Week of room ${room.code}`, exact: true })
    .first()
    .click();
  const dialog = a.page.getByRole("dialog");
  await dialog.getByRole("link", { name: `Open the planner board of campus ${campus.name}`, exact: true }).waitFor();
  await dialog.getByRole("link", { name: `Open the planner board of room ${room.code}`, exact: true }).click();
  await a.page.waitForURL(`${BASE_URL}/planner/room/${room.id}`);
  await a.page.locator('[data-testid="board-calendar"][data-loaded="true"]').waitFor();
});

test("a crowded day of the month view shows its first three sessions and '+n more', which opens that week", async () => {
  // Five sessions on Wednesday 2027-02-17, back to back, all taught by Riley: the teacher's board.
  const day = "2027-02-17";
  const five = [...made.sessions, other.sessions[0]];
  assert.equal(five.length, 5);
  for (const [i, s] of five.entries()) {
    const start = 7 + 3 * i;
    await putSession(a.page, s.id, {
      teacherId: made.teacher.id,
      actualDate: day,
      startTime: `${String(start).padStart(2, "0")}:00:00`,
      endTime: `${String(start + 3).padStart(2, "0")}:00:00`,
    });
  }
  await a.page.goto(`${BASE_URL}/planner/teacher/${made.teacher.id}?view=month&date=2027-02-01`);
  await a.page.locator('[data-testid="board-calendar"][data-loaded="true"]').waitFor();
  const cell = a.page.locator(`td.fc-daygrid-day[data-date="${day}"]`);
  const more = cell.locator(".bp-more");
  await more.waitFor();
  assert.equal(await more.innerText(), "+2 more");
  assert.equal(await more.getAttribute("aria-label"), `2 more sessions on Wed ${day}: open that week`);
  const shown = await cell.locator(".bp-session").evaluateAll((els) => els.map((el) => el.dataset.sessionId));
  assert.deepEqual(
    shown,
    five.slice(0, 3).map((s) => s.id),
  ); // the earliest three: 07:00, 10:00, 13:00
  // Printed, the day shows all five and no "+n more": a timetable on a door has nothing to click.
  await a.page.emulateMedia({ media: "print" });
  try {
    await cell.locator(".bp-session").nth(4).waitFor({ state: "attached" });
    const printed = await cell.locator(".bp-session").evaluateAll((els) => els.map((el) => el.dataset.sessionId));
    assert.deepEqual(printed.sort(), five.map((s) => s.id).sort());
    assert.equal(await cell.locator(".bp-more").count(), 0);
  } finally {
    await a.page.emulateMedia({ media: "screen" });
  }
  await more.waitFor();
  await more.click();
  await a.page.waitForURL(/view=week&date=2027-02-15/);
  for (const s of five) await column(a.page, day).locator(`[data-session-id="${s.id}"]`).waitFor();
});

test("a class before 07:00 is on the week's page: the time grid starts at its hour", async () => {
  const early = other.sessions[0];
  await putSession(a.page, early.id, { teacherId: made.teacher.id, actualDate: "2027-02-18", startTime: "05:00:00", endTime: "05:30:00" });
  await a.page.goto(`${BASE_URL}/planner/teacher/${made.teacher.id}?view=week&date=2027-02-15`);
  await a.page.locator('[data-testid="board-calendar"][data-loaded="true"]').waitFor();
  await column(a.page, "2027-02-18").locator(`[data-session-id="${early.id}"]`).waitFor();
  assert.equal(await a.page.locator('td.fc-timegrid-slot-label[data-time="05:00:00"]').count(), 1);
});

test("a period without a class of the block group says so, and one with classes does not", async () => {
  await openBoard(a.page, "2031-07-07"); // years after the group's Tuesdays
  const empty = a.page.locator('[data-testid="board-empty"]');
  assert.match(await empty.innerText(), /^No sessions in this week: use the arrows or Today/);
  const { actualDate } = await row(a.page, s2.id); // wherever the tests before left it
  await openBoard(a.page, actualDate);
  await card(a.page, s2.id).waitFor();
  assert.equal(await empty.count(), 0);
});

for (const theme of ["light", "dark"]) {
  for (const [device, viewport] of [
    ["desktop", { width: 1440, height: 900 }],
    ["phone", { width: 390, height: 844 }],
  ]) {
    test(`axe finds nothing serious on the board in the ${theme} theme on a ${device}`, async (t) => {
      const opened = await newPage(a.context.browser(), viewport);
      t.after(() => opened.context.close());
      await opened.context.addInitScript((value) => window.localStorage.setItem("blockplan-theme", value), theme);
      await apiLogin(opened.page, DEMO.coordinator);
      await openBoard(opened.page, "2027-02-08");
      await opened.page.waitForFunction((want) => document.documentElement.getAttribute("data-mantine-color-scheme") === want, theme);
      await screenshotAndAudit(opened.page, `board-${theme}-${device}`);
    });
  }
}
