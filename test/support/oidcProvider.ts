import { createServer, type Server } from 'node:http';
import type { TestStack } from './stack';
import { freePort } from './stack';

/**
 * A real OpenID provider (the `oidc-provider` package) on a loopback port: discovery, authorization with PKCE,
 * signed ID tokens, token endpoint. Its interaction logs in `nextLogin` at once (no form): a test sets who signs in
 * (and the amr the ID token asserts), then drives the browser's redirects with `signIn`.
 */
export interface IdpAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface IdpClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export interface TestIdp {
  issuer: string;
  accounts: Map<string, IdpAccount>;
  /** Who the next interaction logs in, with the authentication methods asserted. */
  nextLogin: { sub: string; amr?: string[] };
  close(): Promise<void>;
}

type Provider = import('oidc-provider').default;

export async function startIdp(options: { clients: IdpClient[] }): Promise<TestIdp> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { default: Provider } = require('oidc-provider') as typeof import('oidc-provider');
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const accounts = new Map<string, IdpAccount>();
  const idp: TestIdp = { issuer, accounts, nextLogin: { sub: '' }, close: async () => undefined };
  const provider: Provider = new Provider(issuer, {
    clients: options.clients.map((c) => ({
      ...c,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    cookies: { keys: ['test-idp-cookie-key'] },
    claims: { openid: ['sub', 'amr'], email: ['email', 'email_verified'], profile: ['name'] },
    // Scope claims in the ID token itself (the relying party reads no userinfo).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      return account ? { accountId: id, claims: () => ({ ...account }) } : undefined;
    },
    // First-party clients: the grant is made without a consent screen.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  provider.use(async (ctx, next) => {
    if (!ctx.path.startsWith('/interaction/')) return next();
    const { sub, amr } = idp.nextLogin;
    await provider.interactionFinished(
      ctx.req,
      ctx.res,
      { login: { accountId: sub, amr } },
      { mergeWithLastSubmission: false },
    );
  });
  const server: Server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  idp.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return idp;
}

/** A browser's cookie jar for one provider: enough for oidc-provider's interaction and session cookies. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * Follows the browser's redirects from an address at the provider until one leads to our callback: answers that
 * callback URL (path and query, for stack.http), not calling it.
 */
export async function followToCallback(stack: TestStack, providerUrl: string): Promise<string> {
  const jar = new CookieJar();
  let url = providerUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith(stack.url)) return url.slice(stack.url.length);
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(res);
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location)
      throw new Error(`the provider answered ${res.status} at ${url}: ${await res.text()}`);
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects at the provider');
}

/** GET /auth/sso/{id}/start through the provider to our callback: the callback's path and query. */
export async function startToCallback(stack: TestStack, startPath: string, ip: string): Promise<string> {
  const start = await stack.http.get(startPath).set('X-Forwarded-For', ip);
  if (start.status !== 302) throw new Error(`start answered ${start.status}: ${JSON.stringify(start.body)}`);
  return followToCallback(stack, start.headers.location as string);
}
