import type { ModuleMount } from '../http/mount';
import { createAppPassword } from '../../domain/identity/createAppPassword';
import { listAppPasswords } from '../../domain/identity/listAppPasswords';
import { revokeAppPassword } from '../../domain/identity/revokeAppPassword';
import { mapPage } from '../../lib/pagination';
import { IdParams, PageQuery } from '../http/dtos';
import { noContent } from '../http/routes';
import { CreateAppPasswordBody } from './dtos';
import { noStore } from './request';
import { AppPasswordPageView, AppPasswordView, CreatedAppPasswordView } from './appPasswordViews';
import { CREATE_APP_PASSWORD, LIST_APP_PASSWORDS, REVOKE_APP_PASSWORD } from './appPasswords.docs';

/** /auth/app-passwords: the caller's app passwords for DAV clients, in the organisation of their token. */
export function appPasswordRoutes({ routes }: ModuleMount): void {
  const r = routes('Authentication');

  r.get(
    '/auth/app-passwords',
    {
      summary: 'My app passwords',
      description: LIST_APP_PASSWORDS,
      access: 'user',
      query: PageQuery,
      response: AppPasswordPageView,
    },
    async ({ ctx, query }) => mapPage(await listAppPasswords(ctx, query), AppPasswordView.from),
  );

  r.post(
    '/auth/app-passwords',
    {
      summary: 'Create an app password',
      description: CREATE_APP_PASSWORD,
      access: 'user',
      body: CreateAppPasswordBody,
      response: CreatedAppPasswordView,
      status: 201,
      errors: { 409: '`app_password_limit`: revoke one first' },
    },
    async ({ ctx, body, req }) =>
      noStore(CreatedAppPasswordView.from(await createAppPassword(ctx, { ...body, ip: req.ip })), 201),
  );

  r.delete(
    '/auth/app-passwords/:id',
    {
      summary: 'Revoke an app password',
      description: REVOKE_APP_PASSWORD,
      access: 'user',
      params: IdParams,
      status: 204,
    },
    async ({ ctx, params, req }) => {
      await revokeAppPassword(ctx, { id: params.id, ip: req.ip });
      return noContent();
    },
  );
}
