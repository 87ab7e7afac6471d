import type { Em } from '../../../../lib/db';
import { bound } from '../sql';

/**
 * Rows of a checked customer import per stored part: the worker upserts one part per statement and
 * transaction, so a statement stays well under a second and a crash redoes only the parts not yet committed.
 */
export const IMPORT_PART = 1000;

/**
 * Stores the records of an import as the bytes of their JSON text (bytea, sent in binary): checked customer
 * rows in parts of IMPORT_PART, which PostgreSQL reads itself (the worker never parses them); deal records,
 * not checked yet, in one part.
 */
export async function storePayload(em: Em, importId: string, records: unknown[], checked: boolean): Promise<void> {
  const parts: Buffer[] = [];
  if (!checked) parts.push(Buffer.from(JSON.stringify(records)));
  else for (let at = 0; at < records.length; at += IMPORT_PART) parts.push(Buffer.from(JSON.stringify(records.slice(at, at + IMPORT_PART))));
  if (!parts.length) return;
  const values = parts.map(() => '(?, ?, ?, ?)').join(', ');
  await bound(em, `insert into crm_import_payloads (import_id, part, records, checked) values ${values}`, parts.flatMap((bytes, part) => [importId, part, bytes, checked]));
}
