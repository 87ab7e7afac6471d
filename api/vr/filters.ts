import { invalidField } from '../../lib/errors';

/** The from/to query strings (validated ISO 8601) as dates; 400 when the range is empty. */
export function dateFilters(query: { from?: string; to?: string }): { from: Date | undefined; to: Date | undefined } {
  const from = query.from ? new Date(query.from) : undefined;
  const to = query.to ? new Date(query.to) : undefined;
  if (from && to && from >= to) throw invalidField('to', 'must be after from');
  return { from, to };
}
