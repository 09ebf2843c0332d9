/**
 * CSV for a spreadsheet (RFC 4180), safe to open: a cell a spreadsheet would read as a formula
 * (starting with =, +, -, @, a tab or a carriage return) is prefixed with an apostrophe, as
 * OWASP advises against CSV injection; cells with commas, quotes or line breaks are quoted.
 */
export function csvCell(value: unknown) {
  let text = value === null || value === undefined ? '' : String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

export const csvLine = (cells: unknown[]) => cells.map(csvCell).join(',') + '\r\n'
