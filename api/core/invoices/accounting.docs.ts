import { prose } from '../../http/docs';
import { CSV_FORMULA_NOTE } from '../../../lib/csv';

/** The long OpenAPI texts of accounting.ts (prose: wrapped here, one line in the document). */

export const accountingSettingsDocs = prose`
  Fields given replace the current ones (vatAccounts as a whole). Accounts and journals are those the FEC is written
  with; the reminder plan (remindersEnabled, reminderOffsets in days relative to the due date) drives the payment
  reminders. Defaults until saved: VE / BQ, 411000, 706000, 512000, 44571 per VAT rate, fiscal year from January,
  reminders 3 days before the due date, on it, 7 and 15 days after.
`;

export const fecDocs = prose`
  The Fichier des Écritures Comptables (article A47 A-1 of the Livre des procédures fiscales) of the fiscal year
  ending in \`year\`: the 18 columns, tab-separated (or pipe with separator=pipe), UTF-8 (or ISO-8859-15 with
  encoding=iso-8859-15, the charset of the Content-Type saying which: characters Latin-9 lacks are transliterated,
  typographic quotes and dashes to ASCII, accented letters to their base letter, and anything else written \`?\`),
  one line per entry line,
  dates YYYYMMDD, amounts with a decimal comma. Sales journal: each issued invoice (customer's auxiliary account
  debited, revenue and VAT collected per rate credited), each credit note reversed; bank journal: each payment (bank
  debited, customer credited). The customer lines of an invoice settled by the end of the year (nothing outstanding)
  carry its lettering (EcritureLet, DateLet), as do those of its payments and credit notes. Every entry balances to
  the cent; a document in another currency is booked at its recorded rate, VAT per rate converted as the document
  says, the revenue taking the rounding difference, and its payments and credit notes converted cumulatively so that
  each lettered group sums to zero. Entries are numbered 1..n
  in date order without gaps. Named SIRENFECYYYYMMDD.txt (the closing day, in either encoding: the name is the
  one the article sets) in Content-Disposition; streamed.
`;

export const ledgerCsvDocs = (what: string) => prose`
  ${what} of the period [from, to] (at most 3 years), in id order, as CSV with a header row; amounts are integers
  in cents. ${CSV_FORMULA_NOTE}
`;
