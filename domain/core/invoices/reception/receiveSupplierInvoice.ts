import { createHash } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { Customer } from '../../../../entities/core/customer';
import {
  SupplierInvoice,
  type SupplierInvoiceParty,
  supplierInvoiceChannels,
} from '../../../../entities/core/supplierInvoice';
import { AppError } from '../../../../lib/errors';
import type { Em } from '../../../../lib/db';
import type { TenantContext } from '../../../context';
import { notify, type Note } from '../../../notifications/notify';
import { searchTextOf } from '../../crm/contactDetails';
import type { ReceivedDocument, ReceivedParty } from './document';
import { readDocument } from './readDocument';
import { duplicateOf, lockIdentifier, mapIdentifier, partyOfIdentifier } from './store';
import { sellerKeyOf, sirenOf, vatNumberOf } from './supplierIdentity';

export interface ReceiveSupplierInvoiceProps {
  bytes: Uint8Array;
  channel: (typeof supplierInvoiceChannels)[number];
}

const cut = (value: string | null, max: number) => (value === null ? null : value.slice(0, max));

const partyOf = (p: ReceivedParty): SupplierInvoiceParty => ({
  name: (p.name ?? '').slice(0, 200),
  siren: sirenOf(p),
  legalId: cut(p.legalId, 60),
  vatNumber: vatNumberOf(p),
  electronicAddress: p.endpoint ? cut(`${p.endpointScheme ? `${p.endpointScheme}:` : ''}${p.endpoint}`, 200) : null,
  address: p.address
    ? {
        line1: cut(p.address.line1, 200),
        line2: cut(p.address.line2, 200),
        postalCode: cut(p.address.postalCode, 20),
        city: cut(p.address.city, 100),
        country: cut(p.address.country, 2),
      }
    : null,
});

export const duplicateSupplierInvoice = (id: string, number: string) =>
  new AppError(
    409,
    'supplier_invoice_duplicate',
    `invoice ${number} of this supplier for this year was already received (${id})`,
    [{ field: 'id', message: id }],
  );

/**
 * The CRM party of the seller: the one its SIREN or VAT number was mapped to, else a new organisation with the
 * role supplier (named, addressed as on the invoice), whose identifiers are mapped for the next invoice. Runs in
 * the receiving transaction, under an advisory lock of the seller key.
 */
async function supplierPartyOf(
  em: Em,
  ctx: TenantContext,
  seller: SupplierInvoiceParty,
  notes: Note<'core'>[],
): Promise<string> {
  const identifiers = [
    ...(seller.siren ? [['siren', seller.siren] as const] : []),
    ...(seller.vatNumber ? [['vat', seller.vatNumber] as const] : []),
  ];
  for (const [scheme, identifier] of identifiers) {
    const found = await partyOfIdentifier(em, scheme, identifier);
    if (found) {
      for (const [s, i] of identifiers) await mapIdentifier(em, ctx.tenantId, s, i, found);
      return found;
    }
  }
  const address = seller.address;
  const customer = em.create(Customer, {
    tenantId: ctx.tenantId,
    kind: 'organisation',
    name: seller.name || seller.siren || seller.vatNumber || 'Supplier',
    roles: ['supplier'],
    tags: [],
    emails: [],
    phones: [],
    addresses: address?.line1
      ? [
          {
            type: 'billing',
            line1: address.line1,
            line2: address.line2,
            postalCode: address.postalCode,
            city: address.city,
            region: null,
            country: address.country,
            primary: true,
          },
        ]
      : [],
    primaryEmail: null,
    custom: {},
    ownerId: null,
    externalId: null,
    lastContactAt: null,
    searchText: searchTextOf(seller.name, [], []),
  });
  await em.flush();
  for (const [s, i] of identifiers) await mapIdentifier(em, ctx.tenantId, s, i, customer.id);
  notes.push({
    event: 'customer.created',
    tenantId: ctx.tenantId,
    subject: { customerId: customer.id },
    data: { name: customer.name, source: 'supplier_invoice' },
  });
  return customer.id;
}

function checkLengths(doc: ReceivedDocument): void {
  const tooLong = [
    ['BT-1', doc.number, 200],
    ['BT-10', doc.buyerReference, 200],
    ['BT-13', doc.orderReference, 200],
  ].filter(([, value, max]) => typeof value === 'string' && value.length > (max as number));
  if (tooLong.length)
    throw new AppError(
      422,
      'einvoice_rules_failed',
      'the invoice has identifiers longer than the suite keeps',
      tooLong.map(([field, , max]) => ({ field: String(field), message: `longer than ${max} characters` })),
    );
}

/**
 * Receives a supplier invoice (an upload or a platform delivery): reads and checks it (readDocument: 422 naming
 * the broken rules), refuses a second copy of one already received (409 `supplier_invoice_duplicate`, same
 * seller, number and year; the unique key decides under concurrency), matches or creates the seller's CRM party,
 * and stores the original bytes with what was read, all in one transaction: nothing is half-stored.
 */
export async function receiveSupplierInvoice(
  ctx: TenantContext,
  props: ReceiveSupplierInvoiceProps,
): Promise<SupplierInvoice> {
  const { format, contentType, document: doc } = await readDocument(props.bytes);
  checkLengths(doc);
  const seller = partyOf(doc.seller);
  const number = doc.number!;
  const issueDate = doc.issueDate!;
  const key = { sellerKey: sellerKeyOf(doc.seller), issueYear: Number(issueDate.slice(0, 4)), number };
  const notes: Note<'core'>[] = [];
  const original = Buffer.from(props.bytes);
  let invoice: SupplierInvoice;
  try {
    invoice = await ctx.em.transactional(async (em) => {
      await lockIdentifier(em, ctx.tenantId, key.sellerKey);
      const existing = await duplicateOf(em, key);
      if (existing) throw duplicateSupplierInvoice(existing, number);
      const supplierId = await supplierPartyOf(em, ctx, seller, notes);
      const t = doc.totals;
      return em.create(SupplierInvoice, {
        tenantId: ctx.tenantId,
        status: 'received',
        statusReason: null,
        statusChangedAt: null,
        format,
        channel: props.channel,
        original,
        originalSha256: createHash('sha256').update(original).digest('hex'),
        originalSize: original.length,
        contentType,
        supplierId,
        ...key,
        typeCode: doc.typeCode!,
        issueDate,
        dueDate: doc.dueDate,
        currency: doc.currency!,
        buyerReference: doc.buyerReference,
        orderReference: doc.orderReference,
        paymentTerms: doc.paymentTerms,
        seller,
        buyer: partyOf(doc.buyer),
        lines: doc.lines.map((l) => ({
          id: l.id!,
          name: l.name!,
          quantity: l.quantity!,
          unitCode: l.unitCode!,
          netPriceCents: Math.round(l.netPriceCents ?? 0),
          netCents: l.netCents ?? 0,
          vatCategory: l.vatCategory!,
          vatRate: l.vatRate,
        })),
        vatBreakdown: doc.vatBreakdown.map((b) => ({
          category: b.category!,
          rate: b.rate,
          taxableCents: b.basisCents ?? 0,
          vatCents: b.vatCents ?? 0,
          exemptionReason: b.exemptionReason ?? b.exemptionReasonCode,
        })),
        paymentMeans: doc.paymentMeans,
        notes: doc.notes,
        lineTotalCents: t.lineTotalCents ?? 0,
        taxExclusiveCents: t.taxBasisTotalCents ?? 0,
        vatTotalCents: t.taxTotalCents ?? 0,
        grandTotalCents: t.grandTotalCents ?? 0,
        duePayableCents: t.duePayableCents ?? 0,
        receivedBy: ctx.userId ?? null,
      });
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) {
      const existing = await duplicateOf(ctx.em, key);
      if (existing) throw duplicateSupplierInvoice(existing, number);
    }
    throw err;
  }
  if (notes.length) await notify(ctx.services, 'core', notes);
  return invoice;
}
