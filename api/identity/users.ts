import type { ModuleMount } from '../http/mount';
import { mapPage } from '../../lib/pagination';
import { changePassword } from '../../domain/identity/changePassword';
import { listMySessions } from '../../domain/identity/listMySessions';
import { logoutEverywhere } from '../../domain/identity/logoutEverywhere';
import { getProfile } from '../../domain/identity/getProfile';
import { updateProfile } from '../../domain/identity/updateProfile';
import { revokeMySession } from '../../domain/identity/revokeMySession';
import { ChangePasswordBody, UpdateProfileBody } from './dtos';
import { IdParams, PageQuery } from '../http/dtos';
import { UserSessionList, UserSessionView, UserView } from './views';
import { CHANGE_PASSWORD, SIGN_OUT_EVERYWHERE, SIGN_OUT_SESSION } from './users.docs';

/** /users/me: the caller's own profile, password and signed-in devices. */
export function userRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Users');

  r.get('/users/me', { summary: 'My profile', access: 'user', response: UserView }, async ({ ctx }) =>
    UserView.from(await getProfile(ctx)),
  );

  r.put(
    '/users/me',
    { summary: 'Update my profile', access: 'user', body: UpdateProfileBody, response: UserView },
    async ({ ctx, body }) => UserView.from(await updateProfile(ctx, body)),
  );

  r.post(
    '/users/me/password',
    {
      summary: 'Change my password',
      description: CHANGE_PASSWORD,
      access: 'user',
      body: ChangePasswordBody,
      status: 204,
      rateLimits: [
        { name: 'password-change', limit: services.config.RATE_LIMIT_AUTH_PER_MINUTE, by: (req) => req.auth?.userId },
      ],
    },
    async ({ ctx, auth, body, req }) => {
      await changePassword(ctx, { ...body, sessionId: auth.sid, ip: req.ip });
    },
  );

  r.get(
    '/users/me/sessions',
    {
      summary: 'My signed-in sessions',
      description: 'Sessions not ended nor expired, newest first; `current` marks the one of the access token used.',
      access: 'user',
      query: PageQuery,
      response: UserSessionList,
    },
    async ({ auth, ctx, query }) => {
      const page = await listMySessions(ctx, auth.userId, query);
      return mapPage(page, (s) => UserSessionView.from(s, auth.sid));
    },
  );

  r.delete(
    '/users/me/sessions',
    { summary: 'Sign out everywhere', description: SIGN_OUT_EVERYWHERE, access: 'user', status: 204 },
    async ({ auth, req }) => {
      await logoutEverywhere(services, { userId: auth.userId, ip: req.ip });
    },
  );

  r.delete(
    '/users/me/sessions/:id',
    { summary: 'Sign out one session', description: SIGN_OUT_SESSION, access: 'user', params: IdParams, status: 204 },
    async ({ auth, params, req }) => {
      await revokeMySession(services, { userId: auth.userId, sessionId: params.id, ip: req.ip });
    },
  );
}
