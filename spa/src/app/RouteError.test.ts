import { isChunkError } from "./RouteError";

describe("isChunkError", () => {
  it("knows each browser's words for a code chunk that could not load", () => {
    expect(isChunkError(new TypeError("Failed to fetch dynamically imported module: http://localhost:8000/assets/ReportsPage-x.js"))).toBe(true); // Chromium
    expect(isChunkError(new TypeError("error loading dynamically imported module: http://x/assets/a.js"))).toBe(true); // Firefox
    expect(isChunkError(new TypeError("Importing a module script failed."))).toBe(true); // Safari
  });
  it("leaves other errors alone", () => {
    expect(isChunkError(new Error("Cannot read properties of undefined (reading 'map')"))).toBe(false);
    expect(isChunkError(undefined)).toBe(false);
  });
});
