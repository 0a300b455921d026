// A socket.io-client 4 client that applies change events through the SPA's own reorder window
// (spa/src/lib/eventOrder.ts, transpiled here with the typescript package), driven by
// tests/realtime/test_event_order.py.
//
// Config (env RT_CLIENT, JSON): {url, cookie, origin, quietMs}. Prints {"type":"connect"} once connected.
// On a stdin line {"until": seq} it waits until the reorder window has delivered (or given up on) every
// seq up to `until` — not for a quiet spell: a server process that is descheduled for a while under load
// pauses the events without ending them — then for quietMs more (a late duplicate still counts), and
// prints one line {"type":"report","received":[seq...],"applied":[seq...],"gaps":n,"disconnects":[...]}
// and exits. It gives up waiting after `limitMs` (default 120 s) or when the socket is gone, and reports
// what it has.
import { createInterface } from "node:readline";
import { createRequire } from "node:module";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const { io } = require("socket.io-client");
const ts = require("typescript");

const source = readFileSync(resolve(import.meta.dirname, "../../../spa/src/lib/eventOrder.ts"), "utf8");
const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2020 } }).outputText;
const file = join(mkdtempSync(join(tmpdir(), "eventorder-")), "eventOrder.mjs");
writeFileSync(file, js);
const { createEventSequencer } = await import(pathToFileURL(file).href);

const config = JSON.parse(process.env.RT_CLIENT || "{}");
const out = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");
const received = [];
const applied = [];
let gaps = 0;
let lastEventAt = Date.now();
const sequencer = createEventSequencer({ deliver: (e) => applied.push(e.seq), onGap: () => (gaps += 1) });

const socket = io(config.url, {
  transports: ["websocket"],
  extraHeaders: { Cookie: config.cookie, Origin: config.origin },
  reconnection: false,
});
socket.on("connect", () => out({ type: "connect" }));
socket.on("connect_error", (err) => {
  out({ type: "connect_error", message: err.message });
  process.exit(1);
});
const disconnects = [];
socket.on("disconnect", (reason) => disconnects.push({ reason, lastApplied: sequencer.last }));
socket.on("change", (event) => {
  lastEventAt = Date.now();
  received.push(event.seq);
  sequencer.push(event);
});

createInterface({ input: process.stdin }).on("line", (line) => {
  const until = JSON.parse(line || "{}").until ?? null;
  const quiet = config.quietMs ?? 1000;
  const giveUpAt = Date.now() + (config.limitMs ?? 120_000);
  let reachedAt = null;
  const timer = setInterval(() => {
    const now = Date.now();
    const done = until === null || (sequencer.last !== null && sequencer.last >= until);
    if (done && reachedAt === null) reachedAt = now;
    const settled = done && now - reachedAt >= quiet && now - lastEventAt >= quiet;
    if (settled || now >= giveUpAt || (!done && !socket.connected)) {
      clearInterval(timer);
      out({ type: "report", received, applied, gaps, disconnects });
      socket.close();
      setTimeout(() => process.exit(0), 50);
    }
  }, 50);
});
