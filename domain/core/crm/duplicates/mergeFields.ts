import type { ContactPoint, CustomValues, PostalAddress } from '../../../../entities/core/customer';
import { badRequest, type FieldError } from '../../../../lib/errors';
import { normaliseContacts } from '../contactDetails';
import { normaliseEmail, normalisePhone } from './normalise';

/** What of a customer a merge combines. */
export interface MergeableCustomer {
  id: string;
  kind: 'person' | 'organisation';
  name: string;
  ownerId: string | null;
  externalId: string | null;
  roles: string[];
  tags: string[];
  emails: ContactPoint[];
  phones: ContactPoint[];
  addresses: PostalAddress[];
  custom: CustomValues;
}

export type MergedFields = Omit<MergeableCustomer, 'id'>;

/** The fields a merge chooses the source of; `custom.<key>` for a custom value. */
export const CHOSEN_FIELDS = ['name', 'kind', 'ownerId', 'externalId'] as const;
type Chosen = (typeof CHOSEN_FIELDS)[number];
export const MAX_CHOSEN_FIELDS = 100;

/** Values of a list, the survivor's first, then each source's not already there (by `key`). */
function union<T>(lists: T[][], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of lists.flat()) {
    const k = key(item);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(item);
  }
  return out;
}

/**
 * The survivor's values after a merge: a chosen field takes the value of the customer named in `fields` (400 for
 * a field or a customer not of the merge); a field not chosen keeps the survivor's value, or when it has none
 * the first source's that has one. Roles, tags, e-mails, phones and addresses are the union (contact points
 * compared normalised), the survivor's primary staying primary; custom values are those of the survivor, then
 * of the sources for keys it lacks, then the chosen ones.
 */
export function mergeFields(
  survivor: MergeableCustomer,
  sources: MergeableCustomer[],
  fields: Record<string, string>,
): MergedFields {
  const all = [survivor, ...sources];
  const byId = new Map(all.map((c) => [c.id, c]));
  const errors: FieldError[] = [];
  if (Object.keys(fields).length > MAX_CHOSEN_FIELDS)
    throw badRequest('validation_failed', 'Invalid merge fields', [
      { field: 'fields', message: `chooses at most ${MAX_CHOSEN_FIELDS} fields` },
    ]);
  for (const [field, source] of Object.entries(fields)) {
    if (!(CHOSEN_FIELDS as readonly string[]).includes(field) && !/^custom\.[A-Za-z0-9_]{1,64}$/.test(field))
      errors.push({
        field: `fields.${field}`,
        message: `is not a field a merge chooses (${CHOSEN_FIELDS.join(', ')}, custom.<key>)`,
      });
    else if (typeof source !== 'string' || !byId.has(source.toLowerCase()))
      errors.push({ field: `fields.${field}`, message: 'must be the id of the survivor or of a merged customer' });
  }
  if (errors.length) throw badRequest('validation_failed', 'Invalid merge fields', errors);

  const pick = <K extends Chosen>(field: K): MergeableCustomer[K] => {
    const chosen = fields[field];
    if (chosen) return byId.get(chosen.toLowerCase())![field];
    const present = all.find((c) => c[field] !== null && c[field] !== '');
    return (present ?? survivor)[field];
  };
  const custom: CustomValues = {};
  for (const c of [...sources].reverse()) Object.assign(custom, c.custom);
  Object.assign(custom, survivor.custom);
  for (const [field, source] of Object.entries(fields)) {
    if (!field.startsWith('custom.')) continue;
    const key = field.slice('custom.'.length);
    const value = byId.get(source.toLowerCase())!.custom[key];
    if (value === undefined) delete custom[key];
    else custom[key] = value;
  }
  const contacts = (lists: ContactPoint[][], norm: (v: string) => string | null) =>
    normaliseContacts(union(lists, (p) => norm(p.value) ?? p.value.trim().toLowerCase()));
  return {
    name: pick('name'),
    kind: pick('kind'),
    ownerId: pick('ownerId'),
    externalId: pick('externalId'),
    roles: union(
      all.map((c) => c.roles),
      (r) => r,
    ),
    tags: union(
      all.map((c) => c.tags),
      (t) => t.toLowerCase(),
    ),
    emails: contacts(
      all.map((c) => c.emails),
      normaliseEmail,
    ),
    phones: contacts(
      all.map((c) => c.phones),
      normalisePhone,
    ),
    addresses: normaliseContacts(
      union(
        all.map((c) => c.addresses),
        (a) => [a.line1, a.postalCode, a.city, a.country].map((v) => (v ?? '').trim().toLowerCase()).join('|'),
      ),
    ),
    custom,
  };
}
