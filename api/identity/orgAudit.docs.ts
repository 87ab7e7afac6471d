import { CSV_FORMULA_NOTE } from '../../lib/csv';
import { prose } from '../http/docs';

/** OpenAPI descriptions of an organisation's audit log (api/identity/orgAudit.ts), wrapped as prose. */

const WHO = prose`
  Owners and admins only (\`org.manage\`, else 403 \`permission_denied\`); a caller who is not a member of the
  organisation gets 404, as for anything of another organisation.
`;

export const ORG_AUDIT = prose`
  The organisation's audit log, newest first: sign-ins of members into it (\`auth.login\`, \`auth.login_challenged\`,
  \`session.switched\`), factor changes (\`mfa.*\`), role, member, invitation and seat changes (\`org.*\`, \`rbac.*\`),
  app passwords (\`app_password.*\`), exports of this log (\`org.audit_exported\`). Filters combine (and); \`since\`
  and \`until\` bound the time. Paged by an opaque keyset cursor (same filters). Entries are kept without
  time limit (nothing prunes them; docs/identity.md). ${WHO}
`;

export const ORG_AUDIT_EXPORT = prose`
  The same entries (same filters, no paging), streamed newest first, as a download. format=jsonl (default): one
  JSON object per line. format=csv: a header row (id, createdAt, action, actorId, targetType, targetId, ip, data),
  \`data\` as JSON. ${CSV_FORMULA_NOTE} The export itself is recorded (\`org.audit_exported\`). ${WHO}
`;
