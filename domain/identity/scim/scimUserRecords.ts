import type { Em } from '../../../lib/db';
import type { ScimUser } from '../../../entities/identity/scim';
import { emailsOf, membersAmong } from '../store/scim';

/** A provisioned account as SCIM shows it: the provider's names, the account's e-mail, whether it is a member. */
export interface ScimUserRecord {
  row: ScimUser;
  email: string;
  /** Active while the account is a member of the organisation (deprovisioning removes the membership). */
  active: boolean;
}

/** The records of these rows: two reads for any number of them (e-mails, memberships). */
export async function scimUserRecords(em: Em, rows: ScimUser[]): Promise<ScimUserRecord[]> {
  const ids = rows.map((r) => r.userId);
  const [emails, members] = await Promise.all([emailsOf(em, ids), membersAmong(em, ids)]);
  return rows.map((row) => ({ row, email: emails.get(row.userId) ?? '', active: members.has(row.userId) }));
}
