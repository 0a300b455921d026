// A socket.io-client 4 test client driven by tests/realtime/test_node_client.py.
//
// Config (env RT_CLIENT, JSON): {url, cookie?, origin?, timeoutMs?}. Prints one JSON line per happening:
//   {"type":"connect","id":...} | {"type":"connect_error","message":...,"data":...}
//   {"type":"change","data":{...}} | {"type":"presence","data":{...}} | {"type":"disconnect","reason":...}
//   {"type":"ack","ref":...,"data":...}
// Reads commands from stdin, one JSON per line: {"emit":"presence","data":{...},"ref":"x"} or {"close":true}.
// Exits after a connect error, a server disconnect, {"close":true} or timeoutMs (default 20000).
import { createInterface } from "node:readline";
import { createRequire } from "node:module";

// NODE_PATH is not consulted by ESM imports: resolve socket.io-client through CommonJS.
const require = createRequire(import.meta.url);
const { io } = require("socket.io-client");

const config = JSON.parse(process.env.RT_CLIENT || "{}");
const out = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");

const extraHeaders = {};
if (config.cookie) extraHeaders.Cookie = config.cookie;
if (config.origin) extraHeaders.Origin = config.origin; // Node sends no Origin by itself (trap 5)

const socket = io(config.url, {
  transports: ["websocket"], // no long-polling first (trap 6)
  extraHeaders,
  reconnection: false,
});

const finish = (code = 0) => {
  socket.close();
  setTimeout(() => process.exit(code), 50);
};

socket.on("connect", () => out({ type: "connect", id: socket.id }));
socket.on("connect_error", (err) => {
  out({ type: "connect_error", message: err.message, data: err.data ?? null });
  finish(0);
});
socket.on("change", (data) => out({ type: "change", data }));
socket.on("presence", (data) => out({ type: "presence", data }));
socket.on("disconnect", (reason) => {
  out({ type: "disconnect", reason });
  finish(0);
});

createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  const cmd = JSON.parse(line);
  if (cmd.close) return finish(0);
  if (cmd.emit) socket.emit(cmd.emit, cmd.data, (answer) => out({ type: "ack", ref: cmd.ref ?? null, data: answer }));
});

setTimeout(() => {
  out({ type: "timeout" });
  finish(1);
}, config.timeoutMs ?? 20000);
