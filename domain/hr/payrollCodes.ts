import { payrollTimeVariables, type PayrollCodeMapping } from '../../entities/hr/payroll';
import { badRequest, type FieldError } from '../../lib/errors';
import type { TenantContext } from '../context';
import { payrollCodesRow } from './store/payroll';

/** The organisation's payroll code mapping, nothing mapped until first edited. */
export interface PayrollCodesValues {
  codes: PayrollCodeMapping;
  updatedAt: Date | null;
  updatedBy: string | null;
}

export const EMPTY_PAYROLL_CODES: PayrollCodeMapping = {
  time: Object.fromEntries(payrollTimeVariables.map((v) => [v, null])) as PayrollCodeMapping['time'],
  leaveTypes: [],
};

export async function payrollCodesOf(ctx: TenantContext): Promise<PayrollCodesValues> {
  const row = await payrollCodesRow(ctx.em);
  if (!row) return { codes: EMPTY_PAYROLL_CODES, updatedAt: null, updatedBy: null };
  return { codes: row.codes, updatedAt: row.updatedAt, updatedBy: row.updatedBy ?? null };
}

/**
 * Checks a mapping (pure): a leave type at most once and among `knownTypeIds`, and no code given to two
 * variables (the payroll software would add them up, or keep one). 400 naming every offending field.
 */
export function checkPayrollCodes(codes: PayrollCodeMapping, knownTypeIds: ReadonlySet<string>): void {
  const errors: FieldError[] = [];
  const seen = new Map<string, string>();
  const use = (field: string, code: string | null) => {
    if (code === null) return;
    const other = seen.get(code);
    if (other) errors.push({ field, message: `code ${code} is already given to ${other}` });
    else seen.set(code, field);
  };
  for (const v of payrollTimeVariables) use(`time.${v}`, codes.time[v]);
  const types = new Set<string>();
  codes.leaveTypes.forEach((t, i) => {
    const field = `leaveTypes[${i}]`;
    if (!knownTypeIds.has(t.leaveTypeId))
      errors.push({ field: `${field}.leaveTypeId`, message: 'is not a leave type of the organisation' });
    if (types.has(t.leaveTypeId)) errors.push({ field: `${field}.leaveTypeId`, message: 'is mapped twice' });
    types.add(t.leaveTypeId);
    use(`${field}.daysCode`, t.daysCode);
    use(`${field}.hoursCode`, t.hoursCode);
    use(`${field}.balanceCode`, t.balanceCode);
  });
  if (errors.length) throw badRequest('validation_failed', 'The request is invalid', errors);
}
