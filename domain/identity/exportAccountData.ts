import type { Em } from '../../lib/db';
import type { Services } from '../services';
import { audit } from '../platform/audit';
import {
  actorAuditAfter,
  clockEventsAfter,
  EXPORT_BATCH,
  exportSection,
  leaveRequestsOf,
  payrollMonthsOf,
  type ExportSection,
  type Row,
} from './store/accountData';

/** Names the document's shape; a change that removes or renames a field gets a new version. */
export const ACCOUNT_EXPORT_FORMAT = 'platform-suite.account-export/1';

/** Sections read whole, in the document's order (each a key of the document). */
export const WHOLE_SECTIONS: ExportSection[] = [
  'externalIdentities',
  'scimLinks',
  'scimGroups',
  'ssoLinks',
  'memberships',
  'sessions',
  'appPasswords',
  'apiKeys',
  'invitationsReceived',
  'mails',
  'bookingStaff',
  'vrParticipations',
  'calendarEvents',
  'calendarConnections',
  'dashboards',
];

/** Items authored elsewhere, as references (ids and titles, never their content: it is the organisation's). */
const AUTHORED: ExportSection[] = [
  'knowledgeArticles',
  'knowledgeComments',
  'crmActivities',
  'crmDeals',
  'crmCustomers',
];

const withoutPosition = ({ position: _, ...row }: Row): Row => row;

/** A JSON array written batch by batch from a keyset reader (flat memory however long it is). */
async function* jsonArray(next: (after: [string, string] | null) => Promise<Row[]>): AsyncGenerator<string> {
  yield '[';
  let after: [string, string] | null = null;
  let first = true;
  for (;;) {
    const rows = await next(after);
    for (const row of rows) {
      yield `${first ? '' : ','}${JSON.stringify(withoutPosition(row))}`;
      first = false;
    }
    if (rows.length < EXPORT_BATCH) break;
    const last = rows[rows.length - 1];
    after = [String(last.position), String(last.id)];
  }
  yield ']';
}

/**
 * GET /auth/me/export (GDPR art. 15 and 20): the signed-in person's data across the suite as one JSON document,
 * written as it is read, so an account with years of punches (10,000 clock events and more) streams in batches of
 * EXPORT_BATCH with flat memory instead of being built whole. What it holds, and what it never holds (token hashes,
 * factor secrets, passwords of any kind), is listed in docs/identity.md ("Your data: export and deletion").
 * The export is audited first (`account.exported`); the document follows.
 */
export async function exportAccountData(
  services: Services,
  props: { userId: string; ip?: string | null },
): Promise<AsyncGenerator<string>> {
  const em = services.orm.em.fork();
  audit(em, {
    action: 'account.exported',
    actorId: props.userId,
    targetType: 'user',
    targetId: props.userId,
    ip: props.ip,
  });
  await em.flush();
  return accountDocument(em, props.userId);
}

async function* accountDocument(em: Em, userId: string): AsyncGenerator<string> {
  const [account] = await exportSection(em, 'account', userId);
  yield `{"format":${JSON.stringify(ACCOUNT_EXPORT_FORMAT)},"exportedAt":${JSON.stringify(new Date())}`;
  yield `,"account":${JSON.stringify(account ?? null)}`;
  for (const section of WHOLE_SECTIONS)
    yield `,${JSON.stringify(section)}:${JSON.stringify(await exportSection(em, section, userId))}`;
  const [totp] = await exportSection(em, 'totp', userId);
  const passkeys = await exportSection(em, 'passkeys', userId);
  yield `,"secondFactors":${JSON.stringify({ totp: totp ?? null, passkeys })}`;
  yield ',"hr":[';
  const employees = await exportSection(em, 'employees', userId);
  for (const [i, employee] of employees.entries()) {
    const id = String(employee.id);
    const [leaveRequests, payrollMonths] = [await leaveRequestsOf(em, id), await payrollMonthsOf(em, id)];
    yield `${i ? ',' : ''}${JSON.stringify({ ...employee, leaveRequests, payrollMonths }).slice(0, -1)},"clockEvents":`;
    yield* jsonArray((after) => clockEventsAfter(em, id, after));
    yield '}';
  }
  yield ']';
  const authored: Record<string, Row[]> = {};
  for (const section of AUTHORED) authored[section] = await exportSection(em, section, userId);
  yield `,"authored":${JSON.stringify(authored)}`;
  yield ',"auditEntries":';
  yield* jsonArray((after) => actorAuditAfter(em, userId, after));
  yield '}';
}
