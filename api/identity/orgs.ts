import type { ModuleMount } from '../http/mount';
import { mapPage } from '../../lib/pagination';
import { created, noContent, Reply } from '../http/routes';
import { acceptInvitation } from '../../domain/identity/acceptInvitation';
import { foundOrganization } from '../../domain/identity/foundOrganization';
import { inviteMember } from '../../domain/identity/inviteMember';
import { listInvitations } from '../../domain/identity/listInvitations';
import { listMembers, memberOf } from '../../domain/identity/listMembers';
import { listMyInvitations } from '../../domain/identity/listMyInvitations';
import { listMyOrganizations } from '../../domain/identity/listMyOrganizations';
import { lookupInvitation } from '../../domain/identity/lookupInvitation';
import { memberContext } from '../../domain/identity/memberContext';
import { removeMember } from '../../domain/identity/removeMember';
import { revokeInvitation } from '../../domain/identity/revokeInvitation';
import { setMemberRoles } from '../../domain/identity/setMemberRoles';
import { switchOrganization } from '../../domain/identity/switchOrganization';
import { CreateOrganizationBody, EmailTokenBody, InvitationIdParams, InvitationTokenParams, InviteBody, MemberRoleBody, OrgInvitationParams, OrgMemberParams } from './dtos';
import { IdParams, PageQuery } from '../http/dtos';
import { deviceOf, tokenReply } from './request';
import { InvitationDetailsList, InvitationDetailsView, InvitationList, InvitationView, MemberList, MemberView, MyOrganizationList, MyOrganizationView, PublicInvitationView, TokenPairView } from './views';

/**
 * The permission checks of /orgs/{id}/... run against the organisation in the path (memberContext). Routes
 * that grant or take away roles also apply the escalation rule (domain/identity/grants.ts).
 */
const denied = (permission: string, ownerRule = false, escalation = false) => ({
  403: `\`permission_denied\` (needs ${permission})${ownerRule ? ', `owner_required`' : ''}${escalation ? ', `permission_escalation` (the role involved holds a permission the caller lacks; the detail names them)' : ''}`,
});

const ESCALATION = 'The caller grants or takes away only permissions it holds itself (owners hold every permission).';

const ORG_SCOPE =
  'The organisation is the one in the path, not necessarily the active one of the token: the caller must be a member of it (else 404, like any other tenant\'s resource), and permissions are those of their roles there.';

/** /orgs: my organisations, switching, members and invitations. */
export function organizationRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Organisations');

  // Fixed paths first: /orgs/invites/... and /orgs/my-invites must not be taken for /orgs/{id}/...
  r.get(
    '/orgs/my-invites',
    {
      summary: 'Invitations I received',
      description:
        'Pending invitations addressed to my e-mail, in every organisation, newest first. Accept one with POST /orgs/invites/{inviteId}/accept. Empty while my e-mail is not confirmed (signing in does not prove the mailbox): confirm it, or accept with the link of the invitation mail.',
      access: 'user',
      query: PageQuery,
      response: InvitationDetailsList,
    },
    async ({ auth, ctx, query }) => {
      const page = await listMyInvitations(ctx, auth.userId, query);
      return mapPage(page, InvitationDetailsView.from);
    },
  );

  r.get(
    '/orgs/invites/:token',
    {
      summary: 'Look up an invitation by its token',
      description: 'Public, for the page behind the mailed link: organisation name (never its id: an anonymous answer names no tenant), inviter name, role, invited e-mail and expiry. Unknown, accepted and expired tokens are 404.',
      access: 'public',
      params: InvitationTokenParams,
      response: PublicInvitationView,
      rateLimits: [{ name: 'invitation-lookup-ip', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE }],
    },
    async ({ params }) => PublicInvitationView.from(await lookupInvitation(services, params.token)),
  );

  const acceptDescription =
    'The invitation must be addressed to my e-mail. I become a member with the invitation\'s role; my token stays on its organisation (switch with POST /orgs/{id}/switch). 409 `already_member`; unknown, accepted or expired invitations are 404. 409 `seat_limit_reached` when the organisation already has the members its tier allows (entitlement limit `seats`, owners included; after a downgrade existing members stay, new ones are refused); the invitation stays pending.';

  const acceptErrors = { 403: '`invitation_email_mismatch`', 404: 'Unknown, accepted or expired invitation', 409: '`already_member` or `seat_limit_reached`' };

  r.post(
    '/orgs/invites/accept',
    { summary: 'Accept an invitation with its mailed token', description: `${acceptDescription} The mailed token proves the mailbox: it also confirms my e-mail address. A token sent to another address answers 403 \`invitation_email_mismatch\` (sign in with that address).`, access: 'user', body: EmailTokenBody, response: MyOrganizationView, status: 201, errors: acceptErrors },
    async ({ auth, body, req }) => MyOrganizationView.of(await acceptInvitation(services, { userId: auth.userId, by: { token: body.token }, ip: req.ip }), auth.tenantId),
  );

  r.post(
    '/orgs/invites/:inviteId/accept',
    {
      summary: 'Accept an invitation by id',
      description: `From GET /orgs/my-invites. ${acceptDescription} My e-mail must be confirmed (403 \`email_not_confirmed\`: signing in does not prove the mailbox; accepting with the mailed token does, and confirms it). An invitation addressed to someone else is 404, like an unknown id.`,
      access: 'user',
      params: InvitationIdParams,
      response: MyOrganizationView,
      status: 201,
      errors: { 403: '`email_not_confirmed` (confirm the address, or accept with the mailed token)', 404: 'Unknown, accepted or expired invitation, or one addressed to someone else', 409: '`already_member` or `seat_limit_reached`' },
    },
    async ({ auth, params, req }) => MyOrganizationView.of(await acceptInvitation(services, { userId: auth.userId, by: { invitationId: params.inviteId }, ip: req.ip }), auth.tenantId),
  );

  r.get(
    '/orgs',
    { summary: 'My organisations', description: 'Every organisation I belong to, in the order I joined, with my roles; `active` marks the one of the token.', access: 'user', query: PageQuery, response: MyOrganizationList },
    async ({ auth, ctx, query }) => {
      const page = await listMyOrganizations(ctx, auth.userId, query);
      return mapPage(page, (m) => MyOrganizationView.of(m, auth.tenantId));
    },
  );

  r.post(
    '/orgs',
    {
      summary: 'Create an organisation',
      description: 'I become its owner; it gets the default roles (owner, admin, member) and a free subscription. My token stays on its current organisation: switch with POST /orgs/{id}/switch. Limited to 10 a day per user.',
      access: 'user',
      body: CreateOrganizationBody,
      response: MyOrganizationView,
      status: 201,
      rateLimits: [{ name: 'org-create', limit: 10, windowSeconds: 86_400, by: (req) => req.auth?.userId }],
    },
    async ({ auth, body, req }) => {
      const mine = await foundOrganization(services, { userId: auth.userId, name: body.name, ip: req.ip });
      return created(MyOrganizationView.of(mine, auth.tenantId), `/orgs/${mine.organization.id}`);
    },
  );

  r.post(
    '/orgs/:id/switch',
    {
      summary: 'Switch the active organisation',
      description:
        'Answers a new token pair whose tenantId is this organisation (members only, else 404), in the same session: refreshes of the new refresh token stay in this organisation. It signs nobody out: the tokens held before (another tab, a socket) keep working in their own organisation, and their refresh tokens rotate there; presenting a used refresh token of the session again still ends the whole session.',
      access: 'user',
      params: IdParams,
      response: TokenPairView,
    },
    async ({ auth, params, req }) => tokenReply(await switchOrganization(services, { claims: auth, organizationId: params.id, device: deviceOf(req) })),
  );

  r.get(
    '/orgs/:id/members',
    { summary: 'Members of an organisation', description: `Members with their roles, in the order they joined. Needs org.members.read. ${ORG_SCOPE}`, access: 'user', params: IdParams, query: PageQuery, response: MemberList, errors: denied('org.members.read') },
    async ({ auth, params, query }) => {
      const page = await listMembers(await memberContext(services, params.id, auth.userId, 'org.members.read'), query);
      return mapPage(page, MemberView.from);
    },
  );

  r.post(
    '/orgs/:id/invite',
    {
      summary: 'Invite someone',
      description: `Mails an invitation to join with a role (its link works 7 days). Re-inviting an address with an invitation not yet accepted refreshes that invitation (new link, role and expiry; 200 instead of 201). Only owners invite owners (403 \`owner_required\`), and the role may hold only permissions the caller holds (403 \`permission_escalation\`, naming the missing ones). 409 \`already_member\`; 409 \`seat_limit_reached\` when the members plus the other pending invitations already fill the tier's \`seats\` limit (owners included). Needs org.members.invite. ${ESCALATION} ${ORG_SCOPE}`,
      access: 'user',
      params: IdParams,
      body: InviteBody,
      response: InvitationView,
      status: 201,
      alsoAnswers: { 200: 'A pending invitation of this address was refreshed' },
      errors: { ...denied('org.members.invite', true, true), 409: '`already_member` or `seat_limit_reached`' },
    },
    async ({ auth, params, body, req }) => {
      const ctx = await memberContext(services, params.id, auth.userId, 'org.members.invite');
      const { invitation, refreshed } = await inviteMember(ctx, { ...body, ip: req.ip });
      const view = InvitationView.from(invitation);
      return refreshed ? new Reply(200, view) : created(view, `/orgs/${params.id}/invites/${invitation.id}`);
    },
  );

  r.get(
    '/orgs/:id/invites',
    { summary: 'Pending invitations', description: `Invitations neither accepted nor expired, newest first. Needs org.members.read. ${ORG_SCOPE}`, access: 'user', params: IdParams, query: PageQuery, response: InvitationList, errors: denied('org.members.read') },
    async ({ auth, params, query }) => {
      const page = await listInvitations(await memberContext(services, params.id, auth.userId, 'org.members.read'), query);
      return mapPage(page, InvitationView.from);
    },
  );

  r.delete(
    '/orgs/:id/invites/:inviteId',
    { summary: 'Revoke an invitation', description: `Its link stops working. Accepted or unknown invitations are 404. Needs org.members.invite. ${ORG_SCOPE}`, access: 'user', params: OrgInvitationParams, status: 204, errors: denied('org.members.invite') },
    async ({ auth, params, req }) => {
      await revokeInvitation(await memberContext(services, params.id, auth.userId, 'org.members.invite'), { invitationId: params.inviteId, ip: req.ip });
      return noContent();
    },
  );

  r.patch(
    '/orgs/:id/members/:userId/role',
    {
      summary: "Change a member's role",
      description: `The role replaces every role the member holds. Only owners grant or revoke owner (403 \`owner_required\`); the last owner cannot lose it (409 \`last_owner\`). The role given and every role taken away must hold only permissions the caller holds (403 \`permission_escalation\`, naming the missing ones): a member cannot be made, or unmade, more than the caller is. Takes effect on the member's next request. Needs org.members.manage. ${ESCALATION} ${ORG_SCOPE}`,
      access: 'user',
      params: OrgMemberParams,
      body: MemberRoleBody,
      response: MemberView,
      errors: { ...denied('org.members.manage', true, true), 409: '`last_owner`' },
    },
    async ({ auth, params, body, req }) => {
      const ctx = await memberContext(services, params.id, auth.userId, 'org.members.manage');
      return MemberView.from(memberOf(await setMemberRoles(ctx, { userId: params.userId, roles: [body.role], field: 'role', ip: req.ip })));
    },
  );

  r.delete(
    '/orgs/:id/members/:userId',
    {
      summary: 'Remove a member, or leave',
      description: `Removing someone else needs org.members.manage and every permission of their roles (403 \`permission_escalation\`, naming the missing ones), and only owners remove owners (403 \`owner_required\`); removing myself is leaving. The last owner can do neither (409 \`last_owner\`). The member's tokens for this organisation are revoked at once on every instance. ${ORG_SCOPE}`,
      access: 'user',
      params: OrgMemberParams,
      status: 204,
      errors: { ...denied('org.members.manage', true, true), 409: '`last_owner`' },
    },
    async ({ auth, params, req }) => {
      await removeMember(await memberContext(services, params.id, auth.userId), { userId: params.userId, ip: req.ip });
      return noContent();
    },
  );
}
