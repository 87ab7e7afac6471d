import { prose } from '../http/docs';

/** OpenAPI descriptions of the /orgs routes (api/identity/orgs.ts), wrapped as prose. */

const ESCALATION = prose`
  The caller grants or takes away only permissions it holds itself (owners hold every permission).
`;

const ORG_SCOPE = prose`
  The organisation is the one in the path, not necessarily the active one of the token: the caller must be a member of
  it (else 404, like any other tenant's resource), and permissions are those of their roles there.
`;

const ACCEPTANCE = prose`
  The invitation must be addressed to my e-mail. I become a member with the invitation's role; my token stays on its
  organisation (switch with POST /orgs/{id}/switch). 409 \`already_member\`; unknown, accepted or expired invitations
  are 404. 409 \`seat_limit_reached\` when the organisation already has the members its tier allows (entitlement limit
  \`seats\`, owners included; after a downgrade existing members stay, new ones are refused); the invitation stays
  pending.
`;

/** GET /orgs/my-invites */
export const MY_INVITES = prose`
  Pending invitations addressed to my e-mail, in every organisation, newest first. Accept one with POST
  /orgs/invites/{inviteId}/accept. Empty while my e-mail is not confirmed (signing in does not prove the mailbox):
  confirm it, or accept with the link of the invitation mail.
`;

/** GET /orgs/invites/:token */
export const INVITATION_BY_TOKEN = prose`
  Public, for the page behind the mailed link: organisation name (never its id: an anonymous answer names no tenant),
  inviter name, role, invited e-mail and expiry. Unknown, accepted and expired tokens are 404.
`;

/** POST /orgs/invites/accept */
export const ACCEPT_BY_TOKEN = prose`
  ${ACCEPTANCE} The mailed token proves the mailbox: it also confirms my e-mail address. A token sent to another
  address answers 403 \`invitation_email_mismatch\` (sign in with that address).
`;

/** POST /orgs/invites/:inviteId/accept */
export const ACCEPT_BY_ID = prose`
  From GET /orgs/my-invites. ${ACCEPTANCE} My e-mail must be confirmed (403 \`email_not_confirmed\`: signing in
  does not prove the mailbox; accepting with the mailed token does, and confirms it). An invitation addressed to someone
  else is 404, like an unknown id.
`;

/** GET /orgs */
export const MY_ORGANIZATIONS = prose`
  Every organisation I belong to, in the order I joined, with my roles; \`active\` marks the one of the token.
`;

/** POST /orgs */
export const CREATE_ORGANIZATION = prose`
  I become its owner; it gets the default roles (owner, admin, member) and a free subscription. My token stays on its
  current organisation: switch with POST /orgs/{id}/switch. Limited to 10 a day per user.
`;

/** POST /orgs/:id/switch */
export const SWITCH = prose`
  Answers a new token pair whose tenantId is this organisation (members only, else 404), in the same session: refreshes
  of the new refresh token stay in this organisation. It signs nobody out: the tokens held before (another tab, a
  socket) keep working in their own organisation, and their refresh tokens rotate there; presenting a used refresh token
  of the session again still ends the whole session.
`;

/** GET /orgs/:id/members */
export const MEMBERS = prose`
  Members with their roles, in the order they joined. Needs org.members.read. ${ORG_SCOPE}
`;

/** POST /orgs/:id/invite */
export const INVITE = prose`
  Mails an invitation to join with a role (its link works 7 days). Re-inviting an address with an invitation not yet
  accepted refreshes that invitation (new link, role and expiry; 200 instead of 201). Only owners invite owners (403
  \`owner_required\`), and the role may hold only permissions the caller holds (403 \`permission_escalation\`, naming
  the missing ones). 409 \`already_member\`; 409 \`seat_limit_reached\` when the members plus the other pending
  invitations already fill the tier's \`seats\` limit (owners included). Needs org.members.invite. ${ESCALATION}
  ${ORG_SCOPE}
`;

/** GET /orgs/:id/invites */
export const PENDING_INVITATIONS = prose`
  Invitations neither accepted nor expired, newest first. Needs org.members.read. ${ORG_SCOPE}
`;

/** DELETE /orgs/:id/invites/:inviteId */
export const REVOKE_INVITATION = prose`
  Its link stops working. Accepted or unknown invitations are 404. Needs org.members.invite. ${ORG_SCOPE}
`;

/** PATCH /orgs/:id/members/:userId/role */
export const CHANGE_MEMBER_ROLE = prose`
  The role replaces every role the member holds. Only owners grant or revoke owner (403 \`owner_required\`); the last
  owner cannot lose it (409 \`last_owner\`). The role given and every role taken away must hold only permissions the
  caller holds (403 \`permission_escalation\`, naming the missing ones): a member cannot be made, or unmade, more than
  the caller is. Takes effect on the member's next request. Needs org.members.manage. ${ESCALATION} ${ORG_SCOPE}
`;

/** DELETE /orgs/:id/members/:userId */
export const REMOVE_MEMBER = prose`
  Removing someone else needs org.members.manage and every permission of their roles (403 \`permission_escalation\`,
  naming the missing ones), and only owners remove owners (403 \`owner_required\`); removing myself is leaving. The last
  owner can do neither (409 \`last_owner\`). The member's tokens and app passwords for this organisation are revoked at
  once on every instance. ${ORG_SCOPE}
`;
