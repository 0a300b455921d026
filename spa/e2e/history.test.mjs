// Change history and undo (ADR 0011; first slice): every write is an activity; a block group's History panel shows who changed it,
// live in another coordinator's open page, and admins read the organization's Activity page.
import { test } from "node:test";
import { BASE_URL, DEMO, apiCall, browserForFile, screenshot, signedInPage } from "./lib.mjs";

const shared = browserForFile();

/** Waits until `list` (the History panel, the Activity table) shows a block group's update. */
async function showsBlockGroupUpdate(list) {
  await list
    .getByText(/updated block group /)
    .first()
    .waitFor({ timeout: 10000 });
}

test("a change by one coordinator appears in the other's open History panel, and on the Activity page", async () => {
  const a = await signedInPage(shared.browser, DEMO.coordinator);
  const b = await signedInPage(shared.browser, DEMO.admin);
  const groups = (await apiCall(a.page, "GET", "/api/block-groups")).json;
  const group = groups[0];
  await b.page.goto(`${BASE_URL}/block-groups/${group.id}`);
  await b.page.getByTestId("history-panel").waitFor({ timeout: 15000 });
  const full = (await apiCall(a.page, "GET", `/api/block-groups/${group.id}`)).json;
  const r = await apiCall(a.page, "PUT", `/api/block-groups/${group.id}`, { ...full, notes: `History ${Date.now()}` });
  if (r.status !== 200) throw new Error(`update: ${r.status} ${r.text}`);
  await showsBlockGroupUpdate(b.page.getByTestId("history-panel"));
  await screenshot(b.page, "history-panel");
  await b.page.goto(`${BASE_URL}/activity`);
  await showsBlockGroupUpdate(b.page.getByTestId("activity-table"));
  await screenshot(b.page, "activity-page");
  await a.context.close();
  await b.context.close();
});
