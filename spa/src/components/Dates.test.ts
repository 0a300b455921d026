import { afterEach } from "vitest";
import { displayTime, formatDate, setDisplayFormats, shortTime } from "./Dates";

afterEach(() => setDisplayFormats(undefined, undefined));

test("dates and times follow the user's formats; the defaults are DD/MM/YYYY and 24 hour (ADR 0018)", () => {
  expect(formatDate("2026-03-02")).toBe("02/03/2026");
  expect(displayTime("13:05:00")).toBe("13:05");
  setDisplayFormats("MM/DD/YYYY", "12h");
  expect(formatDate("2026-03-02")).toBe("03/02/2026");
  expect(displayTime("13:05:00")).toBe("1:05 pm");
  expect(displayTime("00:30:00")).toBe("12:30 am");
  expect(displayTime("12:00:00")).toBe("12:00 pm");
  setDisplayFormats("YYYY-MM-DD", "24h");
  expect(formatDate("2026-03-02")).toBe("2026-03-02");
  // Exports and form values keep HH:MM whatever the user's format.
  setDisplayFormats("YYYY-MM-DD", "12h");
  expect(shortTime("13:05:00")).toBe("13:05");
  // An unknown format falls back to the default.
  setDisplayFormats("D.M.YY", "x");
  expect(formatDate("2026-03-02")).toBe("02/03/2026");
});
