import type { TenantContext } from '../../../context';
import { dedupKeys, normaliseName } from '../duplicates/normalise';
import type { DuplicateReasonKind } from '../duplicates/score';
import { customersMatching } from '../store/duplicates';
import type { CustomerRow } from './checkCustomers';

/** An imported row that matches an existing customer, and by what. */
export interface ExistingMatch {
  /** The line of the file. */
  index: number;
  customerId: string;
  reasons: DuplicateReasonKind[];
  /** The checked row's id (internal: which row to skip). */
  rowId: string;
}

/** Contact points of a checked row (records.ts made them `{ type, value, primary }`). */
const points = (list: object[]) => list.map((p) => ({ value: String((p as { value?: unknown }).value ?? '') }));

const KIND: Record<string, DuplicateReasonKind> = { e: 'email', p: 'phone', s: 'legalId', v: 'vatNumber' };

/**
 * The rows of a part that match live customers of the organisation by a duplicate key (e-mail, phone, SIREN, VAT
 * number) or, for organisations, by the same normalised name; the oldest matching customer each. One statement.
 */
export async function matchExisting(
  ctx: TenantContext,
  rows: CustomerRow[],
  lines: number[],
): Promise<ExistingMatch[]> {
  const keyed = rows.map((row) => ({
    row,
    keys: dedupKeys({ emails: points(row.emails), phones: points(row.phones), custom: row.custom }),
    name: row.kind === 'organisation' ? normaliseName(row.name) : '',
  }));
  const keys = [...new Set(keyed.flatMap((k) => k.keys))];
  const names = [...new Set(keyed.map((k) => k.name).filter(Boolean))];
  const existing = await customersMatching(ctx.em, ctx.tenantId, keys, names);
  if (!existing.length) return [];
  const matches: ExistingMatch[] = [];
  keyed.forEach(({ row, keys: rowKeys, name }, i) => {
    for (const c of existing) {
      const shared = rowKeys.filter((k) => c.keys.includes(k));
      const sameName = name !== '' && c.kind === 'organisation' && c.nname === name;
      if (!shared.length && !sameName) continue;
      const reasons = [...new Set(shared.map((k) => KIND[k[0]]))];
      if (sameName) reasons.push('name');
      matches.push({ index: lines[i], customerId: c.id, reasons, rowId: row.id });
      return;
    }
  });
  return matches;
}
