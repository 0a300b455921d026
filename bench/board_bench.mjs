// The browser half of bench/board_bench.py (run that, not this): Debian's Chromium with playwright-core
// against the daphne the Python half started. Prints one JSON line of figures.
// Env: BASE_URL, EMAIL, PASSWORD, TERM_URL (a block group's term view), WEEK_URL (a campus's week view), RUNS.
import { createRequire } from "node:module";
import { resolve } from "node:path";

const require = createRequire(resolve(import.meta.dirname, "../spa/package.json"));
const { chromium } = require("playwright-core");
const { BASE_URL, EMAIL, PASSWORD, TERM_URL, WEEK_URL } = process.env;
const RUNS = Number(process.env.RUNS ?? 3);

// In the page: when the board's answer arrives (its body read), and how many sessions it holds.
const INIT = () => {
  window.__board = {};
  const original = window.fetch;
  window.fetch = async (...args) => {
    const response = await original(...args);
    const url = String(args[0]?.url ?? args[0]);
    if (url.includes("/api/board?")) {
      window.__board.pending = response
        .clone()
        .json()
        .then((body) => {
          window.__board.arrived = performance.now();
          window.__board.n = body.sessions.length;
        });
    }
    return response;
  };
  window.__long = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__long.push(entry.duration);
  }).observe({ type: "longtask", buffered: false });
};

async function signedIn(browser) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: BASE_URL });
  await context.addInitScript(INIT);
  const page = await context.newPage();
  await page.goto(`${BASE_URL}/auth`);
  const status = await page.evaluate(
    async ({ email, password }) => {
      await fetch("/api/auth/user", { credentials: "same-origin" });
      const token = document.cookie.match(/csrftoken=([^;]+)/)?.[1] ?? "";
      const r = await fetch("/api/auth/login", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": token },
        body: JSON.stringify({ email, password, rememberMe: false }),
      });
      return r.status;
    },
    { email: EMAIL, password: PASSWORD },
  );
  if (status !== 200) throw new Error(`sign-in: ${status}`);
  return { context, page };
}

/** ms from the term view's data arriving to every session card in the page. */
async function termRender(page) {
  await page.goto(TERM_URL);
  await page.waitForFunction(() => window.__board.n !== undefined, null, { timeout: 60000 });
  await page.waitForFunction(
    () => {
      if (document.querySelectorAll(".bp-session").length < window.__board.n) return false;
      window.__board.rendered ??= performance.now();
      return true;
    },
    null,
    { polling: "raf", timeout: 60000 },
  );
  return page.evaluate(() => ({ ms: window.__board.rendered - window.__board.arrived, n: window.__board.n }));
}

/** The longest main-thread task while a session is dragged over the week and back (no drop). */
async function dragLongTasks(page) {
  await page.goto(WEEK_URL);
  // The week view stacks at most a few cards per slot (a "+n" link to the rest): wait for the cards shown.
  await page.waitForFunction(() => window.__board.n !== undefined, null, { timeout: 60000 });
  await page.locator('[data-testid="board-calendar"][data-loaded="true"] .bp-session').first().waitFor({ timeout: 60000 });
  const n = await page.evaluate(() => window.__board.n);
  const card = page.locator(".bp-session:not(.fc-event-mirror)").first();
  const box = await card.boundingBox();
  const cols = await page.locator("td.fc-timegrid-col[data-date]").evaluateAll((els) => els.map((el) => el.getBoundingClientRect().x + 20));
  await page.waitForTimeout(500); // let the first render's tasks end before observing
  await page.evaluate(() => {
    window.__long = [];
  });
  const start = { x: box.x + box.width / 2, y: box.y + 3 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + 4, start.y + 4, { steps: 2 });
  for (const x of [...cols, ...cols.slice().reverse()]) await page.mouse.move(x, start.y + 60, { steps: 8 });
  await page.mouse.move(start.x, start.y, { steps: 8 });
  await page.mouse.up();
  await page.waitForTimeout(300);
  const long = await page.evaluate(() => window.__long);
  return { n, longTasks: long.length, maxMs: long.length ? Math.max(...long) : 0 };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
try {
  const { page } = await signedIn(browser);
  const renders = [];
  const drags = [];
  for (let i = 0; i < RUNS; i++) renders.push(await termRender(page));
  for (let i = 0; i < RUNS; i++) drags.push(await dragLongTasks(page));
  console.log(JSON.stringify({ renders, drags }));
} finally {
  await browser.close();
}
