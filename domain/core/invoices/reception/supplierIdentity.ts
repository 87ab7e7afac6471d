import type { ReceivedParty } from './document';

/**
 * How a received invoice's seller is recognised: by its SIREN (the legal registration of scheme 0002, the first 9
 * digits of a SIRET, or the 9 digits of a French VAT number FRkk + SIREN), else its VAT number, else its name.
 */
const compact = (value: string | null) => (value ?? '').replace(/[\s.-]/g, '').toUpperCase();

/** The French VAT key of a SIREN: (12 + 3 × (SIREN mod 97)) mod 97, two digits. */
export const frenchVatKey = (siren: string): string => String((12 + 3 * (Number(siren) % 97)) % 97).padStart(2, '0');

export function sirenOf(party: Pick<ReceivedParty, 'legalId' | 'legalIdScheme' | 'vatNumber'>): string | null {
  const legal = compact(party.legalId);
  if ((party.legalIdScheme === null || party.legalIdScheme === '0002') && /^\d{9}$/.test(legal)) return legal;
  if ((party.legalIdScheme === null || party.legalIdScheme === '0009') && /^\d{14}$/.test(legal))
    return legal.slice(0, 9);
  const vat = /^FR([0-9A-Z]{2})(\d{9})$/.exec(compact(party.vatNumber));
  return vat ? vat[2] : null;
}

export function vatNumberOf(party: Pick<ReceivedParty, 'vatNumber'>): string | null {
  const vat = compact(party.vatNumber);
  return /^[A-Z]{2}[0-9A-Z+*]{2,13}$/.test(vat) ? vat : null;
}

/** The key under which a seller's invoice numbers are unique (duplicates: same key, number and year). */
export function sellerKeyOf(party: ReceivedParty): string {
  const siren = sirenOf(party);
  if (siren) return `siren:${siren}`;
  const vat = vatNumberOf(party);
  if (vat) return `vat:${vat}`;
  return `name:${(party.name ?? '').trim().toLowerCase().replace(/\s+/g, ' ').slice(0, 200)}`;
}
