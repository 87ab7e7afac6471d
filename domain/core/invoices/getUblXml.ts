import type { Invoice } from '../../../entities/core/invoice';
import type { TenantContext } from '../../context';
import { issuedDocument } from './documents';
import { renderUbl } from './ubl';

/** GET .../einvoice/ubl.xml: the UBL 2.1 XML of an issued document. */
export async function getUblXml(ctx: TenantContext, id: string): Promise<{ invoice: Invoice; xml: string }> {
  const { invoice, credited } = await issuedDocument(ctx.em, id);
  return { invoice, xml: renderUbl(invoice, credited) };
}
