import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "./Csv";

describe("CSV cells (CSV injection)", () => {
  it("neutralises text a spreadsheet would run as a formula", () => {
    expect(csvCell('=HYPERLINK("http://evil.example","c")')).toBe(`"'=HYPERLINK(""http://evil.example"",""c"")"`);
    expect(csvCell("+cmd|' /C calc'!A0")).toBe("'+cmd|' /C calc'!A0");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\t=1")).toBe("'\t=1");
    expect(csvCell("\r=1")).toBe(`"'\r=1"`);
  });

  it("keeps numbers (negative ones too) and ordinary text as they are", () => {
    expect(csvCell(-1.5)).toBe("-1.5");
    expect(csvCell(12)).toBe("12");
    expect(csvCell("Cert III = good")).toBe("Cert III = good");
    expect(csvCell(null)).toBe("");
    expect(toCsv(["Block Group", "Hours"], [["+cmd|' /C calc'!A0", 3]])).toBe("Block Group,Hours\r\n'+cmd|' /C calc'!A0,3\r\n");
  });
});
