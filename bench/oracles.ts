import { randomUUID } from 'node:crypto';
import { createUser } from '../domain/identity/createUser';
import { startSession } from '../domain/identity/sessions';
import { percentile, report, runBenchmark, startBenchApp } from './lib';

/**
 * Account oracles: do the anonymous account routes answer in the same time for an address that has an
 * account and one that has not? Alternating requests (known, unknown, known ...) of each route, sequential,
 * on one app instance with its workers; medians and p90 of each side and their difference. The baseline is
 * the spread of the known side itself (p90 - p50): a difference well inside it cannot be told apart by a
 * client. Also the invitation accepted by id: someone else's invitation against a random id.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);

async function main() {
  const app = await startBenchApp('oracles', {
    workers: false,
    env: {
      RATE_LIMIT_AUTH_PER_MINUTE: '1000000',
      RATE_LIMIT_ANON_PER_MINUTE: '1000000',
      SIGNIN_FAILURES_PER_ADDRESS: '1000000',
      SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS: '1000000',
      SIGNIN_FAILURES_BEFORE_DELAY: '1000000',
    },
  });
  try {
    const em = app.services.orm.em.fork();
    const known = `bench-known-${Date.now()}@example.test`;
    const password = 'correct-horse-battery-staple';
    const { user, organization } = await createUser(em, {
      email: known,
      password,
      displayName: 'known',
      emailConfirmed: false,
    });
    const { user: other } = await createUser(em, {
      email: `bench-other-${Date.now()}@example.test`,
      password,
      displayName: 'other',
      emailConfirmed: true,
    });
    await em.flush();
    const { accessToken } = await startSession(app.services, em, other, organization.id);
    // An invitation to `known`'s organisation, addressed to somebody else than `other`.
    const invite = await fetch(`${app.url}/orgs/${organization.id}/invite`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${(await startSession(app.services, em, user, organization.id)).accessToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ email: `bench-invitee-${Date.now()}@example.test`, role: 'member' }),
    });
    const invitationId = ((await invite.json()) as { id: string }).id;

    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const t = performance.now();
      const res = await fetch(`${app.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      await res.arrayBuffer();
      return { ms: performance.now() - t, status: res.status };
    };
    const unknown = () => `bench-unknown-${randomUUID()}@example.test`;
    const routes: Record<
      string,
      [() => Promise<{ ms: number; status: number }>, () => Promise<{ ms: number; status: number }>]
    > = {
      'forgot-password': [
        () => post('/auth/forgot-password', { email: known }),
        () => post('/auth/forgot-password', { email: unknown() }),
      ],
      'resend-confirmation': [
        () => post('/auth/resend-confirmation', { email: known }),
        () => post('/auth/resend-confirmation', { email: unknown() }),
      ],
      register: [
        () => post('/auth/register', { email: known, password }),
        () => post('/auth/register', { email: unknown(), password }),
      ],
      'login (wrong password / unknown)': [
        () => post('/auth/login', { email: known, password: 'wrong-password-x' }),
        () => post('/auth/login', { email: unknown(), password: 'wrong-password-x' }),
      ],
      'accept invitation by id (foreign / random)': [
        () => post(`/orgs/invites/${invitationId}/accept`, undefined, { authorization: `Bearer ${accessToken}` }),
        () => post(`/orgs/invites/${randomUUID()}/accept`, undefined, { authorization: `Bearer ${accessToken}` }),
      ],
    };

    const figures: Record<string, unknown> = { rounds: ROUNDS };
    for (const [name, [knownCall, unknownCall]] of Object.entries(routes)) {
      await knownCall();
      await unknownCall();
      const a: number[] = [];
      const b: number[] = [];
      const statuses = new Set<string>();
      for (let i = 0; i < ROUNDS; i++) {
        const [first, second] = i % 2 ? [unknownCall, knownCall] : [knownCall, unknownCall];
        const r1 = await first();
        const r2 = await second();
        (i % 2 ? b : a).push(r1.ms);
        (i % 2 ? a : b).push(r2.ms);
        statuses.add(`${i % 2 ? r2.status : r1.status}/${i % 2 ? r1.status : r2.status}`);
      }
      const [ka, kb] = [[...a].sort((x, y) => x - y), [...b].sort((x, y) => x - y)];
      const round = (n: number) => +n.toFixed(1);
      figures[name] = {
        statusesKnownUnknown: [...statuses],
        knownP50Ms: round(percentile(ka, 50)),
        unknownP50Ms: round(percentile(kb, 50)),
        differenceP50Ms: round(percentile(ka, 50) - percentile(kb, 50)),
        knownP90Ms: round(percentile(ka, 90)),
        unknownP90Ms: round(percentile(kb, 90)),
        baselineSpreadMs: round(percentile(ka, 90) - percentile(ka, 50)),
      };
    }
    report('oracles', figures);
  } finally {
    await app.close();
  }
}

void runBenchmark(main);
