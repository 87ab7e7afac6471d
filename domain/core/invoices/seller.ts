import type { InvoiceParty } from '../../../entities/core/invoice';
import type { TenantContext } from '../../context';
import { getBusiness } from '../org/getBusiness';

/**
 * The seller as invoices print it, from the organisation's business record: legal name, SIREN (legal id,
 * BT-30), SIRET, VAT number, registered address, e-mail, IBAN and BIC. What is missing there is named by
 * issue's 409 invoice_incomplete (PATCH /api/businesses/{id} fills it).
 */
export async function loadSeller(ctx: TenantContext): Promise<InvoiceParty> {
  const b = await getBusiness(ctx);
  const a = b.address;
  return {
    name: b.legalName,
    legalId: b.siren ?? null,
    siret: b.siret ?? null,
    vatNumber: b.vatNumber ?? null,
    address: a
      ? {
          line1: a.line1,
          line2: a.line2 ?? null,
          postalCode: a.postalCode ?? null,
          city: a.city ?? null,
          country: a.country,
        }
      : null,
    email: b.email ?? null,
    iban: b.iban ?? null,
    bic: b.bic ?? null,
  };
}
