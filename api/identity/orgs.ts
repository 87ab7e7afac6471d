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
import {
  CreateOrganizationBody,
  EmailTokenBody,
  InvitationIdParams,
  InvitationTokenParams,
  InviteBody,
  MemberRoleBody,
  OrgInvitationParams,
  OrgMemberParams,
} from './dtos';
import { IdParams, PageQuery } from '../http/dtos';
import { deviceOf, tokenReply } from './request';
import {
  InvitationDetailsList,
  InvitationDetailsView,
  InvitationList,
  InvitationView,
  MemberList,
  MemberView,
  MyOrganizationList,
  MyOrganizationView,
  PublicInvitationView,
  TokenPairView,
} from './views';
import {
  ACCEPT_BY_ID,
  ACCEPT_BY_TOKEN,
  CHANGE_MEMBER_ROLE,
  CREATE_ORGANIZATION,
  INVITATION_BY_TOKEN,
  INVITE,
  MEMBERS,
  MY_INVITES,
  MY_ORGANIZATIONS,
  PENDING_INVITATIONS,
  REMOVE_MEMBER,
  REVOKE_INVITATION,
  SWITCH,
} from './orgs.docs';

/**
 * The permission checks of /orgs/{id}/... run against the organisation in the path (memberContext). Routes
 * that grant or take away roles also apply the escalation rule (domain/identity/grants.ts).
 */
const denied = (permission: string, ownerRule = false, escalation = false) => ({
  403: `\`permission_denied\` (needs ${permission})${ownerRule ? ', `owner_required`' : ''}${escalation ? ', `permission_escalation` (the role involved holds a permission the caller lacks; the detail names them)' : ''}`,
});

/** /orgs: my organisations, switching, members and invitations. */
export function organizationRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Organisations');

  // Fixed paths first: /orgs/invites/... and /orgs/my-invites must not be taken for /orgs/{id}/...
  r.get(
    '/orgs/my-invites',
    {
      summary: 'Invitations I received',
      description: MY_INVITES,
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
      description: INVITATION_BY_TOKEN,
      access: 'public',
      params: InvitationTokenParams,
      response: PublicInvitationView,
      rateLimits: [{ name: 'invitation-lookup-ip', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE }],
    },
    async ({ params }) => PublicInvitationView.from(await lookupInvitation(services, params.token)),
  );

  const acceptErrors = {
    403: '`invitation_email_mismatch`',
    404: 'Unknown, accepted or expired invitation',
    409: '`already_member` or `seat_limit_reached`',
  };

  r.post(
    '/orgs/invites/accept',
    {
      summary: 'Accept an invitation with its mailed token',
      description: ACCEPT_BY_TOKEN,
      access: 'user',
      body: EmailTokenBody,
      response: MyOrganizationView,
      status: 201,
      errors: acceptErrors,
    },
    async ({ auth, body, req }) =>
      MyOrganizationView.of(
        await acceptInvitation(services, { userId: auth.userId, by: { token: body.token }, ip: req.ip }),
        auth.tenantId,
      ),
  );

  r.post(
    '/orgs/invites/:inviteId/accept',
    {
      summary: 'Accept an invitation by id',
      description: ACCEPT_BY_ID,
      access: 'user',
      params: InvitationIdParams,
      response: MyOrganizationView,
      status: 201,
      errors: {
        403: '`email_not_confirmed` (confirm the address, or accept with the mailed token)',
        404: 'Unknown, accepted or expired invitation, or one addressed to someone else',
        409: '`already_member` or `seat_limit_reached`',
      },
    },
    async ({ auth, params, req }) =>
      MyOrganizationView.of(
        await acceptInvitation(services, { userId: auth.userId, by: { invitationId: params.inviteId }, ip: req.ip }),
        auth.tenantId,
      ),
  );

  r.get(
    '/orgs',
    {
      summary: 'My organisations',
      description: MY_ORGANIZATIONS,
      access: 'user',
      query: PageQuery,
      response: MyOrganizationList,
    },
    async ({ auth, ctx, query }) => {
      const page = await listMyOrganizations(ctx, auth.userId, query);
      return mapPage(page, (m) => MyOrganizationView.of(m, auth.tenantId));
    },
  );

  r.post(
    '/orgs',
    {
      summary: 'Create an organisation',
      description: CREATE_ORGANIZATION,
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
      description: SWITCH,
      access: 'user',
      params: IdParams,
      response: TokenPairView,
      errors: {
        403: '`mfa_enrolment_required`: the organisation requires a second factor the account has not enrolled',
      },
    },
    async ({ auth, params, req }) =>
      tokenReply(
        await switchOrganization(services, { claims: auth, organizationId: params.id, device: deviceOf(req) }),
      ),
  );

  r.get(
    '/orgs/:id/members',
    {
      summary: 'Members of an organisation',
      description: MEMBERS,
      access: 'user',
      params: IdParams,
      query: PageQuery,
      response: MemberList,
      errors: denied('org.members.read'),
    },
    async ({ auth, params, query }) => {
      const page = await listMembers(await memberContext(services, params.id, auth.userId, 'org.members.read'), query);
      return mapPage(page, MemberView.from);
    },
  );

  r.post(
    '/orgs/:id/invite',
    {
      summary: 'Invite someone',
      description: INVITE,
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
    {
      summary: 'Pending invitations',
      description: PENDING_INVITATIONS,
      access: 'user',
      params: IdParams,
      query: PageQuery,
      response: InvitationList,
      errors: denied('org.members.read'),
    },
    async ({ auth, params, query }) => {
      const page = await listInvitations(
        await memberContext(services, params.id, auth.userId, 'org.members.read'),
        query,
      );
      return mapPage(page, InvitationView.from);
    },
  );

  r.delete(
    '/orgs/:id/invites/:inviteId',
    {
      summary: 'Revoke an invitation',
      description: REVOKE_INVITATION,
      access: 'user',
      params: OrgInvitationParams,
      status: 204,
      errors: denied('org.members.invite'),
    },
    async ({ auth, params, req }) => {
      await revokeInvitation(await memberContext(services, params.id, auth.userId, 'org.members.invite'), {
        invitationId: params.inviteId,
        ip: req.ip,
      });
      return noContent();
    },
  );

  r.patch(
    '/orgs/:id/members/:userId/role',
    {
      summary: "Change a member's role",
      description: CHANGE_MEMBER_ROLE,
      access: 'user',
      params: OrgMemberParams,
      body: MemberRoleBody,
      response: MemberView,
      errors: { ...denied('org.members.manage', true, true), 409: '`last_owner`' },
    },
    async ({ auth, params, body, req }) => {
      const ctx = await memberContext(services, params.id, auth.userId, 'org.members.manage');
      return MemberView.from(
        memberOf(await setMemberRoles(ctx, { userId: params.userId, roles: [body.role], field: 'role', ip: req.ip })),
      );
    },
  );

  r.delete(
    '/orgs/:id/members/:userId',
    {
      summary: 'Remove a member, or leave',
      description: REMOVE_MEMBER,
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
