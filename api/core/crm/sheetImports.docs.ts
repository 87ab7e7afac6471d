import { prose } from '../../http/docs';

export const uploadSheetDoc = prose`
  Step 1 of a spreadsheet import: the CSV file itself as the request body (not multipart), streamed and stored as read,
  up to CRM_IMPORT_MAX_BYTES (413 \`file_too_large\`) and CRM_IMPORT_MAX_ROWS rows (413 \`too_many_rows\`). The first
  line is the header. Encoding: a byte order mark (UTF-8, UTF-16) decides, else \`encoding\` (default utf-8; bytes not
  of that encoding are 422 \`encoding_invalid\`). Delimiter: \`delimiter\`, else the one found most in the header (, ;
  tab |). Quoted fields may hold delimiters, quotes ("") and line breaks. XLSX, XLS, ODS and binary files are 422
  \`not_csv\` (save as CSV); broken quoting 422 \`csv_invalid\` with its line. The answer previews the file: its
  columns, first rows and a suggested mapping of each column onto a field or a custom field.
`;

export const checkSheetDoc = prose`
  Step 2, the dry run: every row checked with the mapping (one target per column, in header order), nothing written.
  Refused rows come with their line, field and reason (the first 200; all counted). Cells a spreadsheet would run as a
  formula (=, +, -, @ first, numbers and phone numbers excepted) are kept as text prefixed by an apostrophe and
  counted in \`neutralised\`.
`;

export const startSheetDoc = prose`
  Step 3: the rows are checked again and, when none is refused (or with \`skipBadRows\`), stored for a worker that
  writes them in parts of 1,000 (202; follow it at GET /api/customers/imports/{id}). A refused row without
  \`skipBadRows\` answers 422 \`rows_invalid\` with the refused rows and imports nothing. A row with an externalId
  updates the customer of that externalId, the others create customers.
`;

export const sheetImportDoc = prose`
  Progress (\`processed\` of \`total\`) and outcome: created, updated, refused rows by line (\`index\`).
`;

export const pauseImportDoc = prose`
  The worker stops after the part it is writing; resume goes on from the first part left. 409
  \`import_not_running\` when it is not queued or running.
`;

export const cancelImportDoc = prose`
  Drops the rows not written yet; the customers written stay (undo deletes them). 409 \`import_finished\`.
`;

export const undoImportDoc = prose`
  Deletes every customer the import created, with their activities, relations and scores, in one transaction
  (customers it updated by externalId keep their values). 409 \`import_not_finished\` while it is queued, running or
  paused; 409 \`import_in_use\` (nothing deleted) when a deal, invoice or appointment refers to one of them.
`;
