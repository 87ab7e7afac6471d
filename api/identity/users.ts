import type { ModuleMount } from '../modules';
import { getProfile, updateProfile } from '../../domain/identity/profile';
import { UpdateProfileBody } from './dtos';
import { UserView } from './views';

/** /users/me: the caller's own profile. */
export function userRoutes({ routes }: ModuleMount): void {
  const r = routes('Users');

  r.get('/users/me', { summary: 'My profile', access: 'user', response: UserView }, async ({ ctx }) => UserView.from(await getProfile(ctx)));

  r.put('/users/me', { summary: 'Update my profile', access: 'user', body: UpdateProfileBody, response: UserView }, async ({ ctx, body }) =>
    UserView.from(await updateProfile(ctx, body)),
  );
}
