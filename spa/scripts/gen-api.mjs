// Regenerates spa/openapi.json from the Django server's schema and the typed client's types from it.
// `npm run gen:api` (needs the repository's .venv). The build only runs the second half
// (openapi-typescript on the committed openapi.json), so building needs no Python.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const spa = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const root = resolve(spa, "..");
if (!process.argv.includes("--types-only")) {
  const json = execFileSync(resolve(root, ".venv/bin/python"), [resolve(root, "manage.py"), "export_openapi"], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  });
  writeFileSync(resolve(spa, "openapi.json"), json);
}
execFileSync(resolve(spa, "node_modules/.bin/openapi-typescript"), ["openapi.json", "-o", "src/lib/api-schema.d.ts"], {
  cwd: spa,
  stdio: "inherit",
});
