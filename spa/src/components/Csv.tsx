/** CSV files built in the browser (docs/behaviour/reports.md §5: timetable and report exports) and file downloads. */

/**
 * Text a spreadsheet program could run as a formula (OWASP CSV injection: a leading `=`, `+`, `-`, `@`,
 * tab or carriage return) gets a leading `'`, so it is shown as text. Numbers stay numbers.
 */
export function neutralise(value: unknown): unknown {
  return typeof value === "string" && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function csvCell(value: unknown): string {
  const safe = neutralise(value);
  const text = safe === null || safe === undefined ? "" : String(safe);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: string[], rows: unknown[][]): string {
  return `${[header, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n")}\r\n`;
}

export function downloadBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function downloadCsv(filename: string, header: string[], rows: unknown[][]) {
  downloadBlob(new Blob([toCsv(header, rows)], { type: "text/csv;charset=utf-8" }), filename);
}
