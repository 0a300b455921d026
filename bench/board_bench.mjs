// The browser half of bench/board_bench.py (run that, not this): Debian's Chromium with playwright-core
// against the daphne the Python half started. Prints one JSON line of figures.
// Env: BASE_URL, EMAIL, PASSWORD, TERM_URL (the busiest block group's term view), TERM400_URL (a 400-session
// block group's busiest term), WEEK_URL (a campus's week view), RUNS.
import { createRequire } from "node:module";
import { resolve } from "node:path";

const require = createRequire(resolve(import.meta.dirname, "../spa/package.json"));
const { chromium } = require("playwright-core");
const { BASE_URL, EMAIL, PASSWORD, TERM_URL, TERM400_URL, WEEK_URL } = process.env;
const RUNS = Number(process.env.RUNS ?? 3);

// In the page: when the board's answer arrives (its body read in full, then handed to the app), and how
// many sessions it holds. Reading the body here, not from a clone, keeps the clock from starting after the
// app has already parsed and drawn it.
const INIT = () => {
  window.__board = {};
  const original = window.fetch;
  window.fetch = async (...args) => {
    const response = await original(...args);
    const url = String(args[0]?.url ?? args[0]);
    if (url.includes("/api/board?")) {
      const text = await response.text();
      const n = JSON.parse(text).sessions.length; // the bench's own parse, before the clock starts
      window.__board.arrived = performance.now();
      performance.mark("bp-arrived");
      window.__board.n = n;
      return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
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

/** ms from a term view's data arriving to every card the board gave the calendar (`data-cards`: the
 * sessions shown and a crowded day's "+n more" card) being in the page. */
async function termRender(page, url) {
  await page.goto(`${BASE_URL}/`); // from another screen, as a coordinator opens the board
  await page.waitForTimeout(300);
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  await page.goto(url);
  await page.waitForFunction(() => window.__board.n !== undefined, null, { timeout: 60000 });
  await page.waitForFunction(
    () => {
      const box = document.querySelector('[data-testid="board-calendar"]');
      const want = Number(box?.dataset.cards ?? window.__board.n); // a board without data-cards shows every session
      if (!(want > 0) || document.querySelectorAll(".bp-session:not(.fc-event-mirror), .bp-more").length < want) return false;
      if (window.__board.rendered === undefined) {
        window.__board.rendered = performance.now();
        performance.mark("bp-rendered");
      }
      window.__board.cards = want;
      return true;
    },
    null,
    { polling: "raf", timeout: 60000 },
  );
  const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  const figures = await page.evaluate(() => ({ ms: window.__board.rendered - window.__board.arrived, n: window.__board.n, cards: window.__board.cards }));
  const arrived = events.find((e) => e.name === "bp-arrived");
  const rendered = events.find((e) => e.name === "bp-rendered");
  // The main thread's CPU time from the data's arrival to the cards: the marks' thread clocks (tts, µs).
  const cpu = (rendered.tts - arrived.tts) / 1000;
  return { ...figures, cpuMs: cpu };
}

// The trace gives each main-thread task its thread (CPU) time beside its wall time: on a machine shared
// with other work, a task's wall time includes the time the thread waited for a core.
const TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing"];

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
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  await page.evaluate(() => performance.mark("bp-drag"));
  const start = { x: box.x + box.width / 2, y: box.y + 3 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + 4, start.y + 4, { steps: 2 });
  for (const x of [...cols, ...cols.slice().reverse()]) await page.mouse.move(x, start.y + 60, { steps: 8 });
  await page.mouse.move(start.x, start.y, { steps: 8 });
  await page.mouse.up();
  await page.waitForTimeout(300);
  const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  const long = await page.evaluate(() => window.__long);
  const mark = events.find((e) => e.name === "bp-drag");
  // The same tasks in the trace: the longest wall time, and the longest thread (CPU) time of any task.
  const tasks = events.filter((e) => e.name === "RunTask" && e.ph === "X" && e.tid === mark.tid && e.pid === mark.pid && e.ts >= mark.ts);
  const maxCpuMs = Math.max(0, ...tasks.map((e) => (e.tdur ?? e.dur) / 1000));
  return { n, longTasks: long.length, maxMs: long.length ? Math.max(...long) : 0, maxCpuMs };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
try {
  const { page } = await signedIn(browser);
  const renders = [];
  const renders400 = [];
  const drags = [];
  await termRender(page, TERM_URL); // a first visit compiles the board's code: not counted
  for (let i = 0; i < RUNS; i++) {
    renders.push(await termRender(page, TERM_URL));
    renders400.push(await termRender(page, TERM400_URL));
  }
  for (let i = 0; i < RUNS; i++) drags.push(await dragLongTasks(page));
  console.log(JSON.stringify({ renders, renders400, drags }));
} finally {
  await browser.close();
}
