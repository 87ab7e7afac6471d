import { prose } from '../../http/docs';

export const businessRecordOrganisationDoc = prose`
  Every organisation has exactly one business record: this answers it (created on first read from the organisation: its
  name as trade and legal name, Europe/Paris, EUR, fr-FR, no public slug). Every member may read it; invoices print its
  seller details.
`;

export const whetherPublicSlugFreeDoc = prose`
  The slug is normalised (lower-case) first; the reason says why one is not available (form, reserved word, used by
  another business). The organisation's own slug is available to it.
`;

export const editBusinessRecordDoc = prose`
  Partial update; null clears an optional field. Checked: SIREN/SIRET checksums and that the SIRET starts with the
  SIREN, a French VAT number's key against the SIREN, IBAN checksum, BIC, IANA time zone (one PostgreSQL also knows,
  e.g. not US/Pacific-New), ISO 4217 currency. publicSlug is normalised to lower case, refused when reserved (400) or
  used by another business (409 \`slug_taken\`); publishing the public profile needs a slug. publicProfile is merged
  into the current one.
`;

export const setActiveModulesDoc = prose`
  The complete list of modules to use. Each must be in the organisation's entitlements (403 \`module_not_entitled\`
  otherwise); core cannot be left out. Active modules shape the workspace (sidebar, dashboard summary, onboarding);
  access to a module's API stays governed by the entitlements. A module bought later starts active.
`;
