// Every screen as a coordinator meets it, round two (ADR 0018): each test is one item, most harmful first.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, DEMO, apiCall, browserForFile, chooseOption, openTimetable, screenshot, seriousA11yViolations, signedInPage } from "./lib.mjs";

const RUN = Date.now().toString().slice(-5);
const shared = browserForFile();
// WALK_ONLY=3 runs only the tests whose names start with "3." (a shorter loop while working on one item).
const ONLY = process.env.WALK_ONLY;
const item = (name, fn) => test(name, { skip: !!ONLY && !ONLY.split(",").some((n) => name.startsWith(`${n}.`)), timeout: 120_000 }, fn);

const must = (r, status) => {
  assert.equal(r.status, status, r.text);
  return r.json;
};

/** A fresh active block group (Mondays from `startDate`) with a one-unit plan of `hours`, not scheduled. */
async function groupWithPlan(page, tag, { hours = 30, startDate = "2027-03-01", campusId = null } = {}) {
  const course = must(await apiCall(page, "GET", "/api/courses"), 200)[0];
  const unit = must(await apiCall(page, "POST", "/api/units", { code: `${tag}U`, name: `Unit ${tag}`, nominalHours: hours }), 201);
  const plan = must(await apiCall(page, "POST", "/api/study-plans", { name: `Plan ${tag}`, totalNominalHours: hours }), 201);
  must(await apiCall(page, "POST", `/api/study-plans/${plan.id}/units`, { unitId: unit.id, faceToFaceHours: hours }), 201);
  const group = must(
    await apiCall(page, "POST", "/api/block-groups", {
      code: `${tag}-G`,
      name: `Group ${tag}`,
      courseId: course.id,
      cohortSize: 12,
      campusId,
      startDate,
      preferredDays: "mon",
    }),
    201,
  );
  must(await apiCall(page, "POST", `/api/block-groups/${group.id}/study-plans`, { studyPlanId: plan.id }), 201);
  return { group, unit };
}

item("1. overlapping, zero-length and backwards time ranges are refused on the form and by the server, nothing made", async () => {
  const { context, page } = await signedInPage(shared.browser, DEMO.coordinator);
  try {
    const { group } = await groupWithPlan(page, `OV${RUN}`);
    const sessions = async () => must(await apiCall(page, "GET", `/api/timetables?blockGroupId=${group.id}`), 200).length;
    // The server, whatever the form does.
    const overlap = await apiCall(page, "POST", `/api/block-groups/${group.id}/schedule`, {
      sessionTemplates: [
        { startTime: "09:00:00", endTime: "12:00:00", duration: 3 },
        { startTime: "11:00:00", endTime: "14:00:00", duration: 3 },
      ],
    });
    assert.equal(overlap.status, 400);
    assert.deepEqual(overlap.json, {
      message: "Validation failed",
      type: "validation_error",
      errors: [{ path: ["sessionTemplates"], message: "Template 1 (09:00-12:00) and template 2 (11:00-14:00) overlap" }],
    });
    assert.equal(await sessions(), 0);

    // The form: the same two slots are refused before anything is sent.
    await page.goto(`${BASE_URL}/block-groups/${group.id}`);
    await page.getByRole("button", { name: "Schedule", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: `Schedule Block Group - ${group.code}` });
    await dialog.getByLabel("Template 1 start").waitFor();
    if ((await dialog.getByTestId("session-template").count()) < 2) await dialog.getByRole("button", { name: "Add Template" }).click();
    await dialog.getByLabel("Template 1 start").fill("09:00");
    await dialog.getByLabel("Template 1 end").fill("12:00");
    await dialog.getByLabel("Template 2 start").fill("11:00");
    await dialog.getByLabel("Template 2 end").fill("14:00");
    let posted = 0;
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().endsWith("/schedule")) posted++;
    });
    await dialog.getByRole("button", { name: "Generate Schedule" }).click();
    await dialog.getByText("Template 1 (09:00-12:00) and template 2 (11:00-14:00) overlap").waitFor();
    await screenshot(page, "walk-1-schedule-overlap");
    // Zero length: the end's own error.
    await dialog.getByLabel("Template 2 start").fill("13:00");
    await dialog.getByLabel("Template 2 end").fill("13:00");
    await dialog.getByText("End time must be after start time").waitFor();
    assert.equal(await dialog.getByText(/overlap/).count(), 0);
    assert.equal(posted, 0);
    assert.equal(await sessions(), 0);
    // Fixed: it schedules.
    await dialog.getByLabel("Template 2 end").fill("16:00");
    await dialog.getByRole("button", { name: "Generate Schedule" }).click();
    await dialog.waitFor({ state: "hidden" });
    assert.ok((await sessions()) > 0);

    // The session dialog: HH:MM shown, a backwards range refused on the form.
    await openTimetable(page, group.code);
    await page
      .getByRole("button", { name: /^Edit session/ })
      .first()
      .click();
    const edit = page.getByRole("dialog", { name: "Edit Timetable Entry" });
    assert.equal(await edit.getByLabel("Start Time", { exact: true }).inputValue(), "09:00");
    assert.equal(await edit.getByLabel("End Time", { exact: true }).inputValue(), "12:00");
    await edit.getByLabel("End Time", { exact: true }).fill("08:00");
    await edit.getByRole("button", { name: "Update Entry" }).click();
    await edit.getByText("End time must be after start time").waitFor();
    await edit.getByLabel("End Time", { exact: true }).fill("12:00");
    await page.keyboard.press("Escape");
  } finally {
    await context.close();
  }
});

/**
 * A TCP proxy in front of the test server, as the network between would be: "up" passes everything
 * through, "down" closes every connection unanswered (the server cannot be reached). Switching ends the
 * open connections.
 */
async function outageProxy() {
  const { createServer, connect } = await import("node:net");
  const target = new URL(BASE_URL);
  let mode = "up";
  const open = new Set();
  const server = createServer((client) => {
    open.add(client);
    client.on("close", () => open.delete(client));
    client.on("error", () => {});
    if (mode === "down") return client.destroy();
    const upstream = connect(Number(target.port), target.hostname);
    open.add(upstream);
    upstream.on("close", () => open.delete(upstream));
    upstream.on("error", () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://localhost:${server.address().port}`,
    set(next) {
      mode = next;
      for (const socket of open) socket.destroy();
    },
    close() {
      mode = "down";
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

item("2. an outage is not a sign-out: the session check says it is retrying and recovers; sign-in says unreachable; a chunk waits", async () => {
  const proxy = await outageProxy();
  const context = await shared.browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: proxy.url });
  const page = await context.newPage();
  try {
    await page.goto(`${proxy.url}/auth`);
    await page.evaluate(async () => fetch("/api/auth/user"));
    const signIn = await page.evaluate(async (credentials) => {
      const token = document.cookie.match(/csrftoken=([^;]+)/)?.[1] ?? "";
      const r = await fetch("/api/auth/login", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": token },
        body: JSON.stringify({ ...credentials, rememberMe: false }),
      });
      return r.status;
    }, DEMO.coordinator);
    assert.equal(signIn, 200);
    await page.goto(`${proxy.url}/timetables`);
    await page.getByRole("main").getByRole("heading", { name: "Timetables" }).waitFor();

    // The API answers 502 on reload (the proxy's answer while the application server is down; the page's own
    // files still served): not the sign-in page, the outage said, and back by itself on the same page.
    await page.route("**/api/**", (route) => route.fulfill({ status: 502, contentType: "text/html", body: "Bad Gateway" }));
    await page.reload();
    await page.getByTestId("server-unreachable").getByText("Blockplan can't reach the server, retrying").waitFor();
    assert.equal(new URL(page.url()).pathname, "/timetables");
    await screenshot(page, "walk-2-unreachable");
    await page.unroute("**/api/**");
    await page.getByRole("main").getByRole("heading", { name: "Timetables" }).waitFor({ timeout: 10000 });
    assert.equal(new URL(page.url()).pathname, "/timetables");

    // A screen whose code is not loaded yet, with the server gone: the page waits and comes back.
    proxy.set("down");
    await page.getByRole("link", { name: "Reports" }).first().click();
    await page.getByTestId("server-unreachable").waitFor({ timeout: 10000 });
    assert.equal(new URL(page.url()).pathname, "/reports");
    proxy.set("up");
    await page.getByRole("main").getByRole("heading", { name: "Reports" }).waitFor({ timeout: 15000 });

    // Sign-in while the server is down: "unreachable", not "Login failed".
    const fresh = await shared.browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: proxy.url });
    const phone = await fresh.newPage();
    await phone.goto(`${proxy.url}/auth`);
    await phone.getByLabel("Email").fill(DEMO.coordinator.email);
    await phone.locator('input[name="password"]').fill(DEMO.coordinator.password);
    proxy.set("down");
    await phone.getByRole("button", { name: "Sign In", exact: true }).click();
    await phone.getByText("The server is unreachable", { exact: false }).first().waitFor();
    assert.equal(await phone.getByText("Login failed").count(), 0);
    await screenshot(phone, "walk-2-sign-in-unreachable-390");
    proxy.set("up");
    await phone.getByRole("button", { name: "Sign In", exact: true }).click();
    await phone.waitForURL((url) => url.pathname === "/", { timeout: 10000 });
    await fresh.close();
  } finally {
    await context.close();
    await proxy.close();
  }
});

item("3. history rows say who did what to which records; the detail opens from the row; Redo says Redo; Activity is in the admin's sidebar", async () => {
  const admin = await signedInPage(shared.browser, DEMO.admin);
  const coord = await signedInPage(shared.browser, DEMO.coordinator);
  try {
    const page = admin.page;
    const { scheduledGroupAndTeacher } = await import("./lib.mjs");
    const { group, sessions, teacher } = await scheduledGroupAndTeacher(coord.page, {
      tag: `HI${RUN}`,
      hours: 9,
      startDate: "2027-03-01",
      day: "mon",
      firstName: "Eleni",
      lastName: `Georgiou${RUN}`,
    });
    const two = sessions.slice(0, 2);
    must(await apiCall(coord.page, "PUT", "/api/timetables/bulk-allocate", { sessionIds: two.map((s) => s.id), teacherId: teacher.id }), 200);
    must(await apiCall(page, "POST", "/api/rooms", { code: `HIST-${RUN}`, name: "History room", type: "classroom", capacity: 20 }), 201);

    // The sidebar has Activity for the admin (not for a member); the header names the page.
    await page.goto(`${BASE_URL}/`);
    await page.getByRole("navigation").getByRole("link", { name: "Activity" }).first().click();
    await page.getByRole("banner").getByText("Activity", { exact: true }).first().waitFor();
    const rows = page.getByTestId("activity-row");
    const allocated = rows.filter({ hasText: new RegExp(`allocated Eleni Georgiou${RUN} to 2 sessions of ${group.code}, Mon `) });
    await allocated.waitFor();
    // The detail, from the row.
    await allocated.getByRole("button", { name: /^Jordan Lee allocated Eleni/ }).click();
    const detail = page.getByRole("dialog", { name: "What changed" });
    await detail.getByTestId("activity-detail-row").first().waitFor();
    assert.match(await detail.textContent(), new RegExp(`Georgiou${RUN}`));
    await screenshot(page, "walk-3-activity-detail");
    await page.keyboard.press("Escape");

    // Every entity, rooms too; by person.
    await chooseOption(page, "Area", "Rooms");
    await rows
      .filter({ hasText: `created room HIST-${RUN}` })
      .first()
      .waitFor();
    await chooseOption(page, "Area", "Everything");
    await chooseOption(page, "Person", "Jordan Lee");
    await rows
      .filter({ hasText: `created room HIST-${RUN}` })
      .first()
      .waitFor({ state: "detached" });
    await allocated.waitFor();
    assert.ok((await rows.allTextContents()).every((t) => t.includes("Jordan Lee")));

    // Undo, then the undo's row offers Redo.
    await allocated.getByRole("button", { name: /^Undo:/ }).click();
    const undone = rows.filter({ hasText: /undid: .*allocated Eleni/ }).first();
    await chooseOption(page, "Person", "Everyone");
    await undone.getByRole("button", { name: /^Redo:/ }).waitFor();
    await screenshot(page, "walk-3-activity");

    // A member has no Activity link.
    await coord.page.goto(`${BASE_URL}/`);
    await coord.page.getByRole("navigation").getByRole("link", { name: "Timetables" }).first().waitFor();
    assert.equal(await coord.page.getByRole("navigation").getByRole("link", { name: "Activity" }).count(), 0);
  } finally {
    await admin.context.close();
    await coord.context.close();
  }
});

item("4. rooms are in the sidebar for everyone (read-only for a member) and in the header search by code and name", async () => {
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    const { context, page } = await signedInPage(shared.browser, DEMO.coordinator);
    try {
      await page.setViewportSize(viewport);
      const rooms = must(await apiCall(page, "GET", "/api/rooms"), 200);
      const room = rooms.find((r) => r.code === "CBD-3.12") ?? rooms[0];
      await page.goto(`${BASE_URL}/`);
      if (viewport.width < 600)
        await page
          .getByRole("button", { name: /navigation/i })
          .first()
          .click();
      await page.getByRole("navigation", { name: "Primary" }).getByRole("link", { name: "Rooms" }).click();
      await page.getByTestId("room-row").filter({ hasText: room.code }).first().waitFor();
      assert.equal(await page.getByRole("button", { name: "Add Room" }).count(), 0);
      await screenshot(page, `walk-4-rooms-member-${viewport.width}`);
      if (viewport.width < 600) continue;
      for (const typed of [room.code, room.name]) {
        await page.goto(`${BASE_URL}/`);
        const search = page.getByPlaceholder("Search courses, teachers, units...");
        await search.click();
        await search.fill(typed);
        const option = page.getByRole("option").filter({ hasText: room.code }).first();
        await option.waitFor();
        await option.click();
        await page.waitForURL(/\/rooms\?search=/);
        await page.getByTestId("room-row").filter({ hasText: room.code }).first().waitFor();
        assert.equal(await page.getByTestId("room-row").count(), rooms.filter((r) => r.code.toLowerCase().includes(room.code.toLowerCase())).length);
      }
    } finally {
      await context.close();
    }
  }
});

item(
  "5. room pickers: the group's campus first, other campuses grouped and labelled, booked rooms disabled with what holds them, free/busy in Add Session",
  async () => {
    const { context, page } = await signedInPage(shared.browser, DEMO.coordinator);
    try {
      const rooms = must(await apiCall(page, "GET", "/api/rooms"), 200).filter((r) => r.isActive && r.campusId);
      const campusId = rooms[0].campusId;
      const home = rooms.filter((r) => r.campusId === campusId);
      const other = rooms.find((r) => r.campusId !== campusId);
      assert.ok(other, "the demo data has rooms on two campuses");
      const { group } = await groupWithPlan(page, `RP${RUN}`, { hours: 6, startDate: "2027-05-03", campusId });
      must(
        await apiCall(page, "POST", `/api/block-groups/${group.id}/schedule`, {
          sessionTemplates: [{ startTime: "09:00:00", endTime: "12:00:00", duration: 3 }],
        }),
        200,
      );
      const [first] = must(await apiCall(page, "GET", `/api/timetables?blockGroupId=${group.id}`), 200).filter((s) => s.status !== "cancelled");
      // Another group's session holds a room of this campus at the same time.
      const { group: holder, unit } = await groupWithPlan(page, `RH${RUN}`, { hours: 6, startDate: "2027-05-03", campusId });
      const held = home[0];
      must(
        await apiCall(page, "POST", "/api/timetables", {
          blockGroupId: holder.id,
          unitId: unit.id,
          dayOfWeek: 1,
          weekNumber: 1,
          actualDate: first.actualDate,
          startTime: "09:00:00",
          endTime: "12:00:00",
          actualHours: 3,
          roomId: held.id,
          room: held.code,
          status: "scheduled",
        }),
        201,
      );

      await openTimetable(page, group.code);
      await page
        .getByRole("button", { name: /^Edit session/ })
        .first()
        .click();
      const edit = page.getByRole("dialog", { name: "Edit Timetable Entry" });
      await edit.getByLabel("Room", { exact: true }).fill("");
      await edit.getByLabel("Room", { exact: true }).click();
      const listbox = page.getByRole("listbox");
      await listbox.getByText(/\(this group's campus\)$/).waitFor();
      await listbox
        .getByRole("option", { name: /· (free|booked)/ })
        .first()
        .waitFor();
      const labels = await page.locator(".mantine-Autocomplete-groupLabel, .mantine-Combobox-groupLabel").allTextContents();
      assert.match(labels[0], /\(this group's campus\)$/);
      assert.ok(labels.slice(1).some((l) => l.startsWith("Other campus: ")));
      const booked = listbox.getByRole("option", { name: new RegExp(`^${held.code} .*booked: `) });
      await booked.waitFor();
      assert.equal(await booked.getAttribute("aria-disabled"), "true");
      await screenshot(page, "walk-5-session-room-picker");
      await page.keyboard.press("Escape");
      await page.keyboard.press("Escape");

      // Add Session: free/busy at the date the new session will get.
      await page.getByRole("button", { name: "Add Session" }).click();
      const add = page.getByRole("dialog", { name: "Add Timetable Entry" });
      await add.getByLabel("Week Number").waitFor();
      await add.getByLabel("Room", { exact: true }).click();
      await page
        .getByRole("listbox")
        .getByRole("option", { name: new RegExp(`^${held.code} .*booked: `) })
        .waitFor();
      await page
        .getByRole("listbox")
        .getByRole("option", { name: / · free$/ })
        .first()
        .waitFor();
      await screenshot(page, "walk-5-add-session-room-picker");
    } finally {
      await context.close();
    }
  },
);

/** The boxes of `a` and `b` overlap. */
const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

item("6. a toast never covers a dialog's actions, at 1440 and 390 px", async () => {
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    const { context, page } = await signedInPage(shared.browser, DEMO.coordinator);
    try {
      await page.setViewportSize(viewport);
      const { group } = await groupWithPlan(page, `TO${viewport.width}${RUN}`, { hours: 6 });
      must(
        await apiCall(page, "POST", `/api/block-groups/${group.id}/schedule`, {
          sessionTemplates: [{ startTime: "09:00:00", endTime: "12:00:00", duration: 3 }],
        }),
        200,
      );
      await page.goto(`${BASE_URL}/timetables?blockGroupId=${group.id}`);
      await openTimetable(page, group.code);
      await page
        .getByRole("button", { name: /^Edit session/ })
        .first()
        .click();
      const dialog = page.getByRole("dialog", { name: "Edit Timetable Entry" });
      // The dialog's own History: its Undo shows a toast while the dialog stays open.
      await dialog
        .getByRole("button", { name: /^Undo: / })
        .first()
        .click();
      const toast = page.locator(".mantine-Notification-root").first();
      await toast.waitFor();
      await page.waitForTimeout(400); // the toast's and the dialog's move (CSS transitions) finish
      const box = await toast.boundingBox();
      const buttons = dialog.getByRole("button");
      const covered = [];
      for (let i = 0; i < (await buttons.count()); i++) {
        const b = buttons.nth(i);
        if (!(await b.isVisible())) continue;
        const bb = await b.boundingBox();
        if (bb && overlaps(box, bb)) covered.push((await b.getAttribute("aria-label")) ?? (await b.textContent()));
      }
      await screenshot(page, `walk-6-toast-over-dialog-${viewport.width}`);
      assert.deepEqual(covered, [], `the toast covers ${covered.join(", ")}`);
    } finally {
      await context.close();
    }
  }
});

item("7. a delete dialog says the deletion can be undone from the toast or History, and the toast's Undo brings it back", async () => {
  const { context, page } = await signedInPage(shared.browser, DEMO.coordinator);
  try {
    const code = `DEL${RUN}`;
    const course = must(await apiCall(page, "POST", "/api/courses", { code, name: `Course ${RUN}` }), 201);
    await page.goto(`${BASE_URL}/courses`);
    await page.getByRole("button", { name: `Delete course ${code}` }).click();
    const dialog = page.getByRole("dialog", { name: "Delete Course" });
    await dialog.getByText("Are you sure you want to delete the course? You can undo it from the message that follows or from History.").waitFor();
    assert.equal(await dialog.getByText(/cannot be undone/).count(), 0);
    await screenshot(page, "walk-7-delete-dialog");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await page.getByTestId("toast-undo").click();
    await page.getByTestId("course-card").filter({ hasText: code }).waitFor();
    assert.equal((await apiCall(page, "GET", `/api/courses/${course.id}`)).status, 200);

    // The holiday's dialog says the same, and its toast's Undo brings the holiday back too.
    const name = `Walk day ${RUN}`;
    const holiday = must(await apiCall(page, "POST", "/api/holidays", { name, type: "term_break", startDate: "2031-07-07", endDate: "2031-07-08" }), 201);
    await page.goto(`${BASE_URL}/holidays`);
    await page.getByRole("button", { name: `Delete ${name}` }).click();
    const holidayDialog = page.getByRole("dialog", { name: "Delete Holiday" });
    await holidayDialog
      .getByText(`Are you sure you want to delete the holiday "${name}"? You can undo it from the message that follows or from History.`)
      .waitFor();
    assert.equal(await holidayDialog.getByText(/cannot be undone/).count(), 0);
    await screenshot(page, "walk-7-delete-holiday-dialog");
    await holidayDialog.getByRole("button", { name: "Delete" }).click();
    await page.getByTestId("toast-undo").click();
    await page.getByTestId("holiday-card").filter({ hasText: name }).waitFor();
    assert.equal((await apiCall(page, "GET", `/api/holidays/${holiday.id}`)).status, 200);
  } finally {
    await context.close();
  }
});

item("8. a list that fails to load has Retry; a code-exists error clears when the code changes; a form's error shows once", async () => {
  const { context, page } = await signedInPage(shared.browser, DEMO.coordinator);
  try {
    // The courses list fails once (the server answers 500), then Retry loads it.
    let failing = true;
    await page.route("**/api/courses", (route) =>
      failing && route.request().method() === "GET" ? route.fulfill({ status: 500, body: "{}" }) : route.fallback(),
    );
    await page.goto(`${BASE_URL}/courses`);
    await page.getByText("Failed to load courses. Please try again.").waitFor();
    failing = false;
    await page.getByRole("button", { name: "Retry" }).click();
    await page.getByTestId("course-card").first().waitFor();

    // A code that exists: on the field and in the toast, both gone once the code changes.
    const existing = must(await apiCall(page, "GET", "/api/courses"), 200)[0];
    await page.getByRole("button", { name: "Add Course" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New Course" });
    await dialog.getByLabel("Code").fill(existing.code);
    await dialog.getByLabel(/^Name/).fill(`Copy ${RUN}`);
    await dialog.getByRole("button", { name: "Create Course" }).click();
    const toast = page.locator(".mantine-Notification-root").filter({ hasText: "Course Code Already Exists" });
    await toast.waitFor();
    await dialog
      .getByText(/already used in your organization|already exists/)
      .first()
      .waitFor();
    await dialog.getByLabel("Code").fill(`NEW${RUN}`);
    await toast.waitFor({ state: "detached" });
    assert.equal(await dialog.getByText(/already used in your organization|already exists/).count(), 0);
    await page.keyboard.press("Escape");

    // The leave form's date range error: once.
    const teacher = must(await apiCall(page, "GET", "/api/teachers"), 200)[0];
    await page.goto(`${BASE_URL}/teachers/${teacher.id}`);
    await page.getByRole("button", { name: "Add Leave" }).click();
    const leave = page.getByRole("dialog", { name: "Add Leave" });
    await leave.getByLabel("Start Date").fill("2027-06-10");
    await leave.getByLabel("End Date").fill("2027-06-01");
    await leave.getByRole("button", { name: "Add Leave" }).click();
    await leave.getByText("End date must be on or after start date").first().waitFor();
    assert.equal(await page.getByText("End date must be on or after start date").count(), 1);
  } finally {
    await context.close();
  }
});

/** Axe's serious/critical findings of the page (or its open dialog), with `name` in the message; none expected. */
async function noSeriousA11y(page, name) {
  await screenshot(page, name);
  const found = await seriousA11yViolations(page);
  assert.deepEqual(found, [], `${name}: ${JSON.stringify(found)}`);
}

item("9. leftovers: dashboard Status whole at 1440, a teacher's email wraps at 390, History's Undo whole at 390, scrollable regions focusable", async () => {
  const { context, page } = await signedInPage(shared.browser, DEMO.coordinator);
  try {
    // Dashboard: no Status badge cut.
    await page.goto(`${BASE_URL}/`);
    const badges = page.getByRole("region", { name: "Upcoming sessions table" }).locator("tbody .mantine-Badge-root");
    await badges.first().waitFor();
    const cut = await badges.evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
    assert.deepEqual(cut, []);

    // Set Room over two selected sessions: axe finds nothing serious.
    const { group } = await groupWithPlan(page, `LO${RUN}`, { hours: 6 });
    must(
      await apiCall(page, "POST", `/api/block-groups/${group.id}/schedule`, {
        sessionTemplates: [{ startTime: "09:00:00", endTime: "12:00:00", duration: 3 }],
      }),
      200,
    );
    await openTimetable(page, group.code);
    await page.getByRole("checkbox", { name: "Select all sessions" }).check();
    await page.getByRole("button", { name: "Set Room" }).click();
    await page
      .getByRole("dialog", { name: "Set Room" })
      .getByText(/session\(s\) selected/)
      .waitFor();
    await noSeriousA11y(page, "walk-9-set-room");
    await page.keyboard.press("Escape");

    // On a phone: the teacher page (email apart from phone), History's Undo whole, the utilisation report.
    await page.setViewportSize({ width: 390, height: 844 });
    const teacher = must(
      await apiCall(page, "POST", "/api/teachers", {
        employeeId: `LO${RUN}`,
        firstName: "Long",
        lastName: "Email",
        email: `a.very.long.teacher.email.address.${RUN}@some-campus.demo.blockplan.edu.au`,
        phone: "0400 123 456",
        availability: "both",
        maxWeeklyHours: 40,
      }),
      201,
    );
    await page.goto(`${BASE_URL}/teachers/${teacher.id}`);
    const email = page.getByText(teacher.email, { exact: true });
    const phone = page.getByText("0400 123 456", { exact: true });
    await email.waitFor();
    const [e, p] = [await email.boundingBox(), await phone.boundingBox()];
    assert.ok(!overlaps(e, p), `email ${JSON.stringify(e)} runs into phone ${JSON.stringify(p)}`);
    assert.ok(e.x + e.width <= 390, "the email stays on the screen");
    await noSeriousA11y(page, "walk-9-teacher-390");

    await openTimetable(page, group.code);
    await page
      .getByRole("button", { name: /^Edit session/ })
      .first()
      .click();
    const undo = page
      .getByRole("dialog", { name: "Edit Timetable Entry" })
      .getByRole("button", { name: /^Undo: / })
      .first();
    await undo.scrollIntoViewIfNeeded();
    const fits = await undo.evaluate((b) => {
      const label = b.querySelector(".mantine-Button-label") ?? b;
      return label.scrollWidth <= label.clientWidth + 1 && b.textContent === "Undo";
    });
    assert.ok(fits, "History's Undo is shown whole");
    await screenshot(page, "walk-9-history-undo-390");
    await page.keyboard.press("Escape");

    await page.goto(`${BASE_URL}/reports`);
    await page.getByRole("tab", { name: "Room Utilisation" }).click();
    await page.getByTestId("room-utilisation").locator("tbody tr").first().waitFor();
    await noSeriousA11y(page, "walk-9-utilisation-390");
  } finally {
    await context.close();
  }
});

item("10. the re-plan review on a phone: its tables scroll in focusable regions (axe finds nothing serious)", async () => {
  const { context, page } = await signedInPage(shared.browser, DEMO.coordinator);
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    // Mondays 09:00-12:00 from Monday 7 May 2029; a holiday on the second Monday needs a re-plan.
    const { group } = await groupWithPlan(page, `RV${RUN}`, { hours: 6, startDate: "2029-05-07" });
    must(
      await apiCall(page, "POST", `/api/block-groups/${group.id}/schedule`, {
        sessionTemplates: [{ startTime: "09:00:00", endTime: "12:00:00", duration: 3 }],
      }),
      200,
    );
    const name = `Replan day ${RUN}`;
    must(await apiCall(page, "POST", "/api/holidays", { name, startDate: "2029-05-14", endDate: "2029-05-14" }), 201);
    await page.goto(`${BASE_URL}/holidays`);
    await page.getByRole("button", { name: `Re-plan around ${name}` }).click();
    const review = page.getByRole("dialog", { name: "Review re-plan" });
    await review.getByTestId("replan-change").first().waitFor();
    // The change table is wider than the phone: its own container scrolls, and a keyboard can reach it.
    const scroller = await review
      .getByRole("table", { name: /^Changes of / })
      .first()
      .evaluate((t) => {
        let s = t.parentElement;
        while (s && !["auto", "scroll"].includes(getComputedStyle(s).overflowX)) s = s.parentElement;
        return s && { scrolls: s.scrollWidth > s.clientWidth, tabIndex: s.tabIndex };
      });
    assert.deepEqual(scroller, { scrolls: true, tabIndex: 0 });
    await noSeriousA11y(page, "walk-10-replan-390");
  } finally {
    await context.close();
  }
});
