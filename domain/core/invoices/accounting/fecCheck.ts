import { FEC_COLUMNS, fecSeparators, type FecSeparator } from './fec';

const DATE = /^\d{4}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/;
const AMOUNT = /^\d+,\d{2}$/;
const cents = (a: string) => Number(a.replace(',', ''));

/**
 * What breaks the published rules of the FEC (A47 A-1 LPF and its BOFiP comments) in a file's text: the header of
 * the 18 columns, 18 cells a line, dates YYYYMMDD (EcritureDate, PieceDate, ValidDate; DateLet when lettered),
 * amounts with a comma and two decimals, debit or credit on each line, each entry balanced, EcritureNum 1..n
 * without gaps, entries in date order, lettering and its date together. Empty when the file complies.
 */
export function fecViolations(text: string, separator: FecSeparator = 'tab'): string[] {
  const sep = fecSeparators[separator];
  const errors: string[] = [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  if (lines[0] !== FEC_COLUMNS.join(sep)) errors.push('header: not the 18 columns in order');
  const balance = new Map<string, number>();
  const dateOf = new Map<string, string>();
  let lastNum = 0;
  let lastDate = '';
  lines.slice(1).forEach((text, i) => {
    const at = `line ${i + 2}`;
    const cells = text.split(sep);
    if (cells.length !== FEC_COLUMNS.length) return errors.push(`${at}: ${cells.length} cells`);
    const c = Object.fromEntries(FEC_COLUMNS.map((name, k) => [name, cells[k]])) as Record<string, string>;
    for (const name of [
      'JournalCode',
      'JournalLib',
      'EcritureNum',
      'CompteNum',
      'CompteLib',
      'PieceRef',
      'EcritureLib',
    ])
      if (!c[name]) errors.push(`${at}: ${name} empty`);
    for (const name of ['EcritureDate', 'PieceDate', 'ValidDate'])
      if (!DATE.test(c[name])) errors.push(`${at}: ${name} ${c[name]} is not YYYYMMDD`);
    for (const name of ['Debit', 'Credit'])
      if (!AMOUNT.test(c[name])) errors.push(`${at}: ${name} ${c[name]} is not an amount with a decimal comma`);
    if (c.Montantdevise && !AMOUNT.test(c.Montantdevise)) errors.push(`${at}: Montantdevise ${c.Montantdevise}`);
    if (!!c.Montantdevise !== !!c.Idevise) errors.push(`${at}: Montantdevise and Idevise go together`);
    if (!!c.EcritureLet !== !!c.DateLet) errors.push(`${at}: EcritureLet and DateLet go together`);
    if (c.DateLet && !DATE.test(c.DateLet)) errors.push(`${at}: DateLet ${c.DateLet} is not YYYYMMDD`);
    if (!!c.CompAuxNum !== !!c.CompAuxLib) errors.push(`${at}: CompAuxNum and CompAuxLib go together`);
    const debit = cents(c.Debit);
    const credit = cents(c.Credit);
    if ((debit === 0) === (credit === 0)) errors.push(`${at}: exactly one of Debit and Credit is not zero`);
    const num = Number(c.EcritureNum);
    if (!balance.has(c.EcritureNum)) {
      if (num !== lastNum + 1) errors.push(`${at}: EcritureNum ${c.EcritureNum} after ${lastNum} (a gap or disorder)`);
      if (c.EcritureDate < lastDate) errors.push(`${at}: entry ${num} dated before the previous one`);
      lastNum = num;
      lastDate = c.EcritureDate;
      dateOf.set(c.EcritureNum, c.EcritureDate);
    } else {
      if (num !== lastNum) errors.push(`${at}: entry ${c.EcritureNum}'s lines are not together`);
      if (dateOf.get(c.EcritureNum) !== c.EcritureDate) errors.push(`${at}: one entry, two dates`);
    }
    balance.set(c.EcritureNum, (balance.get(c.EcritureNum) ?? 0) + debit - credit);
  });
  for (const [num, b] of balance) if (b !== 0) errors.push(`entry ${num}: debit and credit differ by ${b} cents`);
  return errors;
}
