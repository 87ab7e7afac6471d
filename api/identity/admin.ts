import type { ModuleMount } from '../http/mount';
import { mapPage } from '../../lib/pagination';
import { accepted, noContent } from '../http/routes';
import { endSessionAsAdmin } from '../../domain/identity/admin/endSessionAsAdmin';
import { listAudit } from '../../domain/identity/admin/listAudit';
import { listOutbox } from '../../domain/identity/admin/listOutbox';
import { platformOverview } from '../../domain/identity/admin/platformOverview';
import { searchOrganizations } from '../../domain/identity/admin/searchOrganizations';
import { searchUsers } from '../../domain/identity/admin/searchUsers';
import { setOrganizationSuspended } from '../../domain/identity/admin/setOrganizationSuspended';
import { setPlatformAdmin } from '../../domain/identity/admin/setPlatformAdmin';
import { setUserDisabled } from '../../domain/identity/admin/setUserDisabled';
import { signupsPerDay } from '../../domain/identity/admin/signupsPerDay';
import { startBroadcast } from '../../domain/identity/admin/startBroadcast';
import { listActiveSessions } from '../../domain/identity/listSessions';
import { deleteAccount } from '../../domain/identity/deleteAccount';
import { DeletedAccountView } from './accountViews';
import {
  AdminSessionsQuery,
  AuditQuery,
  BroadcastBody,
  OutboxQuery,
  SearchQuery,
  SignupsQuery,
  SuspendBody,
} from './dtos';
import { IdParams } from '../http/dtos';
import {
  AdminOrganizationList,
  AdminOrganizationView,
  AdminSessionList,
  AdminSessionView,
  AdminUserList,
  AdminUserView,
  AuditEntryList,
  AuditEntryView,
  BroadcastView,
  MailList,
  MailView,
  PlatformOverviewView,
  SignupsView,
} from './adminViews';
import {
  AUDIT,
  BROADCAST,
  DELETE_USER,
  DISABLE_USER,
  END_SESSION,
  OUTBOX,
  OVERVIEW,
  REMOVE_PLATFORM_ADMIN,
  SIGNUPS,
  SUSPEND_ORGANIZATION,
} from './admin.docs';

/** /admin: platform administration (platform administrators only; every action is audited). */
export function adminRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Platform administration');

  r.get(
    '/admin/users',
    {
      summary: 'Accounts',
      description: 'Newest first; `q` searches the e-mail and display name (case-insensitive).',
      access: 'admin',
      query: SearchQuery,
      response: AdminUserList,
    },
    async ({ query }) => {
      const page = await searchUsers(services, query);
      return mapPage(page, AdminUserView.of);
    },
  );

  r.post(
    '/admin/users/:id/disable',
    {
      summary: 'Disable an account',
      description: DISABLE_USER,
      access: 'admin',
      params: IdParams,
      response: AdminUserView,
      errors: { 409: '`cannot_disable_self`' },
    },
    async ({ auth, params, req }) =>
      AdminUserView.of(
        await setUserDisabled(services, { actorId: auth.userId, userId: params.id, disabled: true, ip: req.ip }),
      ),
  );

  r.post(
    '/admin/users/:id/enable',
    {
      summary: 'Enable a disabled account',
      description: 'It may sign in again (its old tokens and app passwords stay revoked).',
      access: 'admin',
      params: IdParams,
      response: AdminUserView,
    },
    async ({ auth, params, req }) =>
      AdminUserView.of(
        await setUserDisabled(services, { actorId: auth.userId, userId: params.id, disabled: false, ip: req.ip }),
      ),
  );

  r.delete(
    '/admin/users/:id',
    {
      summary: 'Delete an account',
      description: DELETE_USER,
      access: 'admin',
      params: IdParams,
      response: DeletedAccountView,
      errors: {
        409: '`cannot_delete_self` (use DELETE /auth/me), `last_owner`, `subscription_active`: the organisations are named in `errors`',
      },
    },
    async ({ auth, params, req }) =>
      DeletedAccountView.from(
        await deleteAccount(services, { userId: params.id, by: { self: false, adminId: auth.userId }, ip: req.ip }),
      ),
  );

  r.post(
    '/admin/users/:id/platform-admin',
    { summary: 'Make an account a platform administrator', access: 'admin', params: IdParams, response: AdminUserView },
    async ({ auth, params, req }) =>
      AdminUserView.of(
        await setPlatformAdmin(services, { actorId: auth.userId, userId: params.id, admin: true, ip: req.ip }),
      ),
  );

  r.delete(
    '/admin/users/:id/platform-admin',
    {
      summary: 'Remove platform administration from an account',
      description: REMOVE_PLATFORM_ADMIN,
      access: 'admin',
      params: IdParams,
      response: AdminUserView,
      errors: { 409: '`cannot_demote_self`' },
    },
    async ({ auth, params, req }) =>
      AdminUserView.of(
        await setPlatformAdmin(services, { actorId: auth.userId, userId: params.id, admin: false, ip: req.ip }),
      ),
  );

  r.get(
    '/admin/organizations',
    {
      summary: 'Organisations',
      description: 'Newest first, with member counts and subscription tier; `q` searches the name and slug.',
      access: 'admin',
      query: SearchQuery,
      response: AdminOrganizationList,
    },
    async ({ query }) => {
      const page = await searchOrganizations(services, query);
      return mapPage(page, (s) => AdminOrganizationView.of(s.organization, s));
    },
  );

  r.post(
    '/admin/organizations/:id/suspend',
    {
      summary: 'Suspend an organisation',
      description: SUSPEND_ORGANIZATION,
      access: 'admin',
      params: IdParams,
      body: SuspendBody,
      response: AdminOrganizationView,
    },
    async ({ auth, params, body, req }) =>
      AdminOrganizationView.of(
        await setOrganizationSuspended(services, {
          actorId: auth.userId,
          organizationId: params.id,
          suspended: true,
          reason: body.reason,
          ip: req.ip,
        }),
      ),
  );

  r.post(
    '/admin/organizations/:id/unsuspend',
    {
      summary: 'Lift the suspension of an organisation',
      access: 'admin',
      params: IdParams,
      response: AdminOrganizationView,
    },
    async ({ auth, params, req }) =>
      AdminOrganizationView.of(
        await setOrganizationSuspended(services, {
          actorId: auth.userId,
          organizationId: params.id,
          suspended: false,
          ip: req.ip,
        }),
      ),
  );

  r.get(
    '/admin/sessions',
    {
      summary: 'Active sessions',
      description: 'Sessions neither ended nor expired, newest first, optionally of one user.',
      access: 'admin',
      query: AdminSessionsQuery,
      response: AdminSessionList,
    },
    async ({ query }) => {
      const page = await listActiveSessions(services, query);
      return mapPage(page, AdminSessionView.of);
    },
  );

  r.delete(
    '/admin/sessions/:id',
    { summary: "End a user's session", description: END_SESSION, access: 'admin', params: IdParams, status: 204 },
    async ({ auth, params, req }) => {
      await endSessionAsAdmin(services, { actorId: auth.userId, sessionId: params.id, ip: req.ip });
      return noContent();
    },
  );

  r.get(
    '/admin/audit',
    { summary: 'Audit log', description: AUDIT, access: 'admin', query: AuditQuery, response: AuditEntryList },
    async ({ query }) => {
      const page = await listAudit(services, {
        ...query,
        since: query.since ? new Date(query.since) : undefined,
        until: query.until ? new Date(query.until) : undefined,
      });
      return mapPage(page, AuditEntryView.from);
    },
  );

  r.get(
    '/admin/stats/overview',
    { summary: 'Platform figures', description: OVERVIEW, access: 'admin', response: PlatformOverviewView },
    async () => PlatformOverviewView.from(await platformOverview(services)),
  );

  r.get(
    '/admin/stats/signups',
    { summary: 'Sign-ups per day', description: SIGNUPS, access: 'admin', query: SignupsQuery, response: SignupsView },
    async ({ query }) => SignupsView.from(await signupsPerDay(services, query.days)),
  );

  r.post(
    '/admin/broadcast-email',
    {
      summary: 'Mail every active account',
      description: BROADCAST,
      access: 'admin',
      body: BroadcastBody,
      response: BroadcastView,
      status: 202,
    },
    async ({ auth, body, req }) =>
      accepted(BroadcastView.from(await startBroadcast(services, { actorId: auth.userId, ...body, ip: req.ip }))),
  );

  r.get(
    '/admin/outbox',
    {
      summary: 'Mail outbox',
      description: OUTBOX,
      access: 'admin',
      query: OutboxQuery,
      response: MailList,
    },
    async ({ query }) => {
      const page = await listOutbox(services, query);
      return mapPage(page, MailView.from);
    },
  );
}
