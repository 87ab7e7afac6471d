import type { AppPasswordScope } from '../../domain/identity/verifyAppPassword';
import type { Account } from './factories';
import type { TestStack } from './stack';

/**
 * Creates an app password of `account` in its organisation through the API, as a member would: the Basic
 * credentials a DAV client is then configured with (login = the account's e-mail).
 */
export async function createAppPassword(
  stack: TestStack,
  account: Account,
  scopes: AppPasswordScope[],
): Promise<{ login: string; password: string; id: string }> {
  const res = await stack.http
    .post('/auth/app-passwords')
    .set(account.auth)
    .send({ name: `Test device ${scopes.join('+')}`, scopes });
  if (res.status !== 201) throw new Error(`app password not created: ${res.status} ${JSON.stringify(res.body)}`);
  const body = res.body as { id: string; password: string };
  return { login: account.email, password: body.password, id: body.id };
}
