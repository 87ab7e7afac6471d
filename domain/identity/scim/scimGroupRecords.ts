import type { ScimGroup } from '../../../entities/identity/scim';
import type { Em } from '../../../lib/db';
import { membersOfGroups } from '../store/scimGroups';

/** A group as the SCIM routes show it: its row and its members with their userNames. */
export interface ScimGroupRecord {
  row: ScimGroup;
  members: { userId: string; userName: string }[];
}

/** Records of these groups (members read in one statement; `withMembers` false skips them: excludedAttributes). */
export async function scimGroupRecords(
  em: Em,
  tenantId: string,
  rows: ScimGroup[],
  withMembers = true,
): Promise<ScimGroupRecord[]> {
  const members = withMembers
    ? await membersOfGroups(
        em,
        tenantId,
        rows.map((r) => r.id),
      )
    : new Map();
  return rows.map((row) => ({ row, members: members.get(row.id) ?? [] }));
}
