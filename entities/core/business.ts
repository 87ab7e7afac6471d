import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn, createdAt, tenantFilter, updatedAt } from '../base';

/** A postal address as invoices and the storefront print it. */
export interface PostalAddress {
  line1: string;
  line2: string | null;
  postalCode: string;
  city: string;
  region: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

/** What the storefront and the public knowledge base show about the business. */
export interface PublicProfile {
  /** Whether the storefront answers at all (an unpublished slug is reserved but answers 404). */
  published: boolean;
  headline: string | null;
  description: string | null;
  email: string | null;
  phone: string | null;
  website: string | null;
}

export const emptyPublicProfile = (): PublicProfile => ({
  published: false,
  headline: null,
  description: null,
  email: null,
  phone: null,
  website: null,
});

/**
 * The organisation's business record (one per organisation, created on first read): the seller details
 * invoices print (legal name, SIREN/SIRET, VAT number, address, IBAN), the time zone and currency booking
 * and invoicing work in, the public slug of the storefront, and the modules the organisation turned off.
 * Active modules are the entitled ones minus `disabledModules`, so a module bought later is on by default.
 */
export const Business = defineEntity({
  name: 'Business',
  tableName: 'core_businesses',
  filters: tenantFilter,
  // The slug rules hold in the database too (lower-case letters, digits and inner hyphens, 3 to 63).
  checks: [
    { name: 'core_businesses_public_slug_check', expression: `public_slug ~ '^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$'` },
  ],
  properties: {
    id: idColumn(),
    tenantId: p.uuid().unique(),
    createdAt: createdAt(),
    /** Trade name shown in the app and on the storefront. */
    name: p.string().length(120),
    legalName: p.string().length(200),
    legalForm: p.string().length(60).nullable(),
    /** French company number (9 digits), SIRET of the establishment (14 digits). */
    siren: p.string().length(9).nullable(),
    siret: p.string().length(14).nullable(),
    /** Intra-community VAT number, upper-cased without spaces. */
    vatNumber: p.string().length(16).nullable(),
    email: p.string().length(254).nullable(),
    phone: p.string().length(32).nullable(),
    website: p.string().length(300).nullable(),
    address: p.json<PostalAddress>().nullable(),
    /** Where invoices are sent when it differs from the registered address. */
    billingAddress: p.json<PostalAddress>().nullable(),
    /** IANA time zone of appointments and working hours. */
    timeZone: p.string().length(64).default('Europe/Paris'),
    currency: p.string().length(3).default('EUR'),
    locale: p.string().length(16).default('fr-FR'),
    iban: p.string().length(34).nullable(),
    bic: p.string().length(11).nullable(),
    logoUrl: p.string().length(2000).nullable(),
    /** Unique across the service (lower-case); null until chosen. */
    publicSlug: p.string().length(63).nullable().unique(),
    publicProfile: p.json<PublicProfile>(),
    /** Entitled modules the organisation switched off. */
    disabledModules: p.array().columnType('text[]').default([]),
    updatedAt: updatedAt(),
  },
});
export type Business = InferEntity<typeof Business>;
