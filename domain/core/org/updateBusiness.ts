import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Business, PostalAddress, PublicProfile } from '../../../entities/core/business';
import { badRequest, conflict, notFound, type FieldError } from '../../../lib/errors';
import { checkZone } from '../../../lib/timeZones';
import type { TenantContext } from '../../context';
import { audit } from '../../platform/audit';
import { getBusiness } from './getBusiness';
import { frenchVatOf, normaliseIban, normaliseVat } from './identifiers';
import { normaliseSlug, slugProblem } from './publicSlug';

/** An address as given: the optional lines may be left out. */
export type AddressInput = Omit<PostalAddress, 'line2' | 'region'> & { line2?: string | null; region?: string | null };

/** Fields of the business record a manager edits; null clears an optional field. */
export interface UpdateBusinessProps {
  name?: string;
  legalName?: string;
  legalForm?: string | null;
  siren?: string | null;
  siret?: string | null;
  vatNumber?: string | null;
  email?: string | null;
  phone?: string | null;
  website?: string | null;
  address?: AddressInput | null;
  billingAddress?: AddressInput | null;
  timeZone?: string;
  currency?: string;
  locale?: string;
  iban?: string | null;
  bic?: string | null;
  logoUrl?: string | null;
  publicSlug?: string | null;
  /** Merged into the current profile. */
  publicProfile?: Partial<PublicProfile>;
}

export const slugTaken = (slug: string) =>
  conflict('slug_taken', `The public slug "${slug}" is already used by another business`);

/**
 * Edits the business record of the context's organisation (`id` must be it: another id is 404). Checks the
 * consistency the DTOs cannot: the SIRET starts with the SIREN, a French VAT number carries the SIREN's key,
 * PostgreSQL knows the time zone.
 * The slug is normalised, refused when reserved, and unique across the service (409 slug_taken, enforced
 * by the database's unique index).
 */
export async function updateBusiness(ctx: TenantContext, id: string, props: UpdateBusinessProps): Promise<Business> {
  const business = await getBusiness(ctx);
  if (business.id !== id) throw notFound('Business');
  const { publicProfile, publicSlug, vatNumber, iban, bic, currency, address, billingAddress, ...plain } = props;
  // The dashboard reads the zone in SQL (`at time zone`): a name only Intl knows would fail it for good.
  if (plain.timeZone !== undefined) await checkZone(ctx.em, 'timeZone', plain.timeZone.trim());
  Object.assign(business, trimmed(plain));
  if (address !== undefined) business.address = addressOf(address);
  if (billingAddress !== undefined) business.billingAddress = addressOf(billingAddress);
  if (vatNumber !== undefined) business.vatNumber = vatNumber === null ? null : normaliseVat(vatNumber);
  if (iban !== undefined) business.iban = iban === null ? null : normaliseIban(iban);
  if (bic !== undefined) business.bic = bic === null ? null : bic.toUpperCase();
  if (currency !== undefined) business.currency = currency.toUpperCase();
  if (publicProfile) business.publicProfile = { ...business.publicProfile, ...trimmed(publicProfile) };
  if (publicSlug !== undefined) {
    const slug = publicSlug === null ? null : normaliseSlug(publicSlug);
    const problem = slug === null ? null : slugProblem(slug);
    if (problem)
      throw badRequest('validation_failed', 'The request is invalid', [{ field: 'publicSlug', message: problem }]);
    business.publicSlug = slug;
  }
  const errors = consistencyErrors(business);
  if (errors.length) throw badRequest('validation_failed', 'The request is invalid', errors);
  audit(ctx.em, {
    action: 'core.business.updated',
    actorId: ctx.userId,
    tenantId: ctx.tenantId,
    targetType: 'business',
    targetId: business.id,
    data: { fields: Object.keys(props) },
  });
  try {
    await ctx.em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw slugTaken(business.publicSlug ?? '');
    throw err;
  }
  return business;
}

const addressOf = (a: AddressInput | null): PostalAddress | null =>
  a && {
    ...trimmed({ line1: a.line1, postalCode: a.postalCode, city: a.city }),
    line2: a.line2?.trim() || null,
    region: a.region?.trim() || null,
    country: a.country.toUpperCase(),
  };

/** The given fields (undefined ones dropped), strings trimmed (blanks around a name are never meant). */
function trimmed<T extends object>(values: T): T {
  return Object.fromEntries(
    Object.entries(values)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, typeof v === 'string' ? v.trim() : v]),
  ) as T;
}

/** Cross-field rules on the record as it would be stored. */
function consistencyErrors(b: Business): FieldError[] {
  const errors: FieldError[] = [];
  if (b.siren && b.siret && !b.siret.startsWith(b.siren))
    errors.push({ field: 'siret', message: 'must start with the SIREN' });
  if (b.siren && b.vatNumber?.startsWith('FR') && /^FR\d\d/.test(b.vatNumber) && b.vatNumber !== frenchVatOf(b.siren)) {
    errors.push({ field: 'vatNumber', message: `does not match the SIREN (expected ${frenchVatOf(b.siren)})` });
  }
  if (b.publicProfile.published && !b.publicSlug)
    errors.push({ field: 'publicProfile.published', message: 'needs a publicSlug' });
  return errors;
}
