import type { Customer } from '../../../entities/core/customer';
import type { BuyerOverrides, InvoiceParty, PartyAddress } from '../../../entities/core/invoice';

/**
 * The buyer as the invoice prints it: the CRM customer's name, its billing address (else its primary one, else
 * its first) and primary e-mail, with what the draft gives beyond the CRM (VAT number, SIREN, another address).
 */
export function buyerOf(customer: Customer, overrides: BuyerOverrides): InvoiceParty {
  const addresses = customer.addresses ?? [];
  const source = addresses.find((a) => a.type === 'billing') ?? addresses.find((a) => a.primary) ?? addresses[0];
  const address: PartyAddress | null =
    overrides.address ??
    (source?.country
      ? {
          line1: source.line1,
          line2: source.line2,
          postalCode: source.postalCode,
          city: source.city,
          country: source.country,
        }
      : null);
  return {
    name: customer.name,
    legalId: overrides.legalId,
    siret: null,
    vatNumber: overrides.vatNumber,
    address,
    email: customer.primaryEmail ?? null,
    iban: null,
    bic: null,
  };
}
