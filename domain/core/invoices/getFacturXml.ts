import type { Invoice } from '../../../entities/core/invoice';
import type { TenantContext } from '../../context';
import { issuedDocument } from './documents';
import { renderFacturX } from './facturx';

/** GET .../einvoice/factur-x.xml: the CII XML of an issued document. */
export async function getFacturXml(ctx: TenantContext, id: string): Promise<{ invoice: Invoice; xml: string }> {
  const { invoice, credited } = await issuedDocument(ctx.em, id);
  return { invoice, xml: renderFacturX(invoice, credited) };
}
