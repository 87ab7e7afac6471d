import type { FrenchCtcTerms, InvoiceParty, OperationCategory } from '../../../entities/core/invoice';

/**
 * What the French e-invoicing reform adds to a document, decided when it is issued (stored as `ctc`, so the
 * document renders the same ever after). The reform's e-invoicing (flux 2, through an approved platform) covers a
 * seller established in France invoicing a business established in France (one with a SIREN, given or read from
 * its French VAT number); other documents (consumers, foreign buyers, a buyer identified by something else than a
 * SIREN) are e-reported instead and get none of this.
 *
 *  - BT-23, the billing framework: B1 goods, S1 services, M1 both (the draft's operationCategory), 1 being a plain
 *    invoice or credit note (2 already paid, 4 deposit: not issued by the suite);
 *  - BG-1 coded notes: the treatment (BAR: B2B) and the mentions of article L441-10 of the Code de commerce as the
 *    reform requires them (BR-FR-05): the 40 EUR recovery indemnity (PMT), the late-payment penalties (PMD) and
 *    the early-payment discount, none (AAB);
 *  - BT-34 and BT-49, the electronic addresses: the SIREN under scheme 0225 (the French directory's), the routing
 *    identifier approved platforms resolve through the directory.
 */
export const FRENCH_MENTIONS = {
  PMT: 'Indemnité forfaitaire pour frais de recouvrement en cas de retard de paiement : 40 € (art. L441-10 et D441-5 du Code de commerce).',
  PMD: "Pénalités de retard : taux d'intérêt appliqué par la BCE à son opération de refinancement la plus récente, majoré de 10 points (art. L441-10 du Code de commerce).",
  AAB: "Pas d'escompte pour paiement anticipé.",
} as const;

const FRAMEWORK_LETTER: Record<OperationCategory, string> = { goods: 'B', services: 'S', mixed: 'M' };

/**
 * The SIREN of a party: its legal registration when that is one (9 digits), else the one inside a French VAT
 * number (FRkk + SIREN). A legal identifier of another form (a foreign registry's) is no SIREN.
 */
export function sirenOf(p: Pick<InvoiceParty, 'legalId' | 'vatNumber'>): string | null {
  if (p.legalId && /^\d{9}$/.test(p.legalId)) return p.legalId;
  const m = /^FR[0-9A-Z]{2}(\d{9})$/.exec(p.vatNumber ?? '');
  return m ? m[1] : null;
}

/** Whether a document between these parties is in the scope of French e-invoicing (B2B, both in France). */
export function inFrenchScope(seller: InvoiceParty, buyer: InvoiceParty): boolean {
  return seller.address?.country === 'FR' && buyer.address?.country === 'FR' && sirenOf(buyer) !== null;
}

/** The CTC terms of a document issued between these parties, or null outside the reform's scope. */
export function frenchCtcTerms(
  category: OperationCategory,
  seller: InvoiceParty,
  buyer: InvoiceParty,
): FrenchCtcTerms | null {
  if (!inFrenchScope(seller, buyer)) return null;
  const buyerSiren = sirenOf(buyer);
  return {
    businessProcess: `${FRAMEWORK_LETTER[category]}1`,
    notes: [
      { subject: 'BAR', text: 'B2B' },
      { subject: 'PMT', text: FRENCH_MENTIONS.PMT },
      { subject: 'PMD', text: FRENCH_MENTIONS.PMD },
      { subject: 'AAB', text: FRENCH_MENTIONS.AAB },
    ],
    sellerEndpoint: seller.legalId ? { id: seller.legalId, scheme: '0225' } : null,
    buyerEndpoint: buyerSiren ? { id: buyerSiren, scheme: '0225' } : null,
  };
}
