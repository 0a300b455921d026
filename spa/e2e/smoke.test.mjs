// The built SPA and the API docs are served by the one ASGI process.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, browserForFile, newPage, screenshot } from "./lib.mjs";

const shared = browserForFile();

test("the SPA is served at / and /auth, the OpenAPI docs at /api/docs", async () => {
  const { page, context } = await newPage(shared.browser);
  const root = await page.goto(`${BASE_URL}/`);
  assert.equal(root.status(), 200);
  await page.goto(`${BASE_URL}/auth`);
  await page.getByRole("button", { name: "Sign In", exact: true }).waitFor({ timeout: 30_000 });
  await screenshot(page, "smoke-auth");
  const docs = await page.goto(`${BASE_URL}/api/docs`);
  assert.equal(docs.status(), 200);
  const schema = await page.goto(`${BASE_URL}/api/openapi.json`);
  assert.equal(schema.status(), 200);
  const json = JSON.parse(await schema.text());
  assert.equal(json.info.title, "Blockplan API");
  await context.close();
});

test("the SPA and Swagger UI run under the Content-Security-Policy with no violation", async () => {
  const { page, context } = await newPage(shared.browser);
  const violations = [];
  page.on("console", (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) violations.push(msg.text());
  });
  const root = await page.goto(`${BASE_URL}/auth`);
  assert.match(root.headers()["content-security-policy"] ?? "", /script-src 'self'/);
  assert.equal(root.headers()["x-frame-options"], "DENY");
  await page.getByRole("button", { name: "Sign In", exact: true }).waitFor({ timeout: 30_000 });
  await page.goto(`${BASE_URL}/api/docs`);
  // Swagger UI renders the operations from our own static files (no CDN under script-src 'self').
  await page.locator(".swagger-ui .opblock").first().waitFor({ timeout: 30_000 });
  await screenshot(page, "smoke-api-docs-csp");
  assert.deepEqual(violations, []);
  await context.close();
});
