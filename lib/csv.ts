import type { Options } from 'csv-stringify';

/**
 * csv-stringify options of every CSV download: a header row, and a `'` before a cell that would start a
 * spreadsheet formula (= + - @, tab, carriage return), so a customer named "=HYPERLINK(...)" stays text when an
 * administrator opens the file. Numbers (a negative amount) are never prefixed: csv-stringify checks the type.
 */
export const csvExportOptions = { header: true, escape_formulas: true } as const satisfies Options;

/** The sentence the OpenAPI description of a CSV download carries about it. */
export const CSV_FORMULA_NOTE =
  "Cells that would start a formula (=, +, -, @, tab, carriage return; not numbers) are prefixed with '.";
