import type { Response } from 'supertest';
import { User } from '../../entities/identity/user';
import { issueEmailToken } from '../../domain/identity/issueEmailToken';
import { createAccount, uniqueEmail, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { startProxy, type TcpProxy } from '../support/proxy';
import { startStack, TEST_INTERNAL_SECRET, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';

/** Sign-in throttling (OWASP Authentication Cheat Sheet): failures are limited, never a correct password from a fresh device. */

const retryAfter = (res: Response) => Number(res.headers['retry-after']);

/** Runs the calls `width` at a time (many argon2 verifications at once would only measure the machine). */
async function inBatches<T>(count: number, width: number, call: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < count; i += width)
    results.push(...(await Promise.all(Array.from({ length: Math.min(width, count - i) }, (_, j) => call(i + j)))));
  return results;
}

describe('sign-in throttling with the default limits', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
  });
  afterAll(() => stack.close());

  const from = (ip: string) => stack.http.post('/auth/login').set('X-Forwarded-For', ip);

  it('lets a classroom of 25 trainees sign in from one school address within a minute, typos included', async () => {
    const trainees = await inBatches(25, 5, () => createAccount(stack, { email: uniqueEmail('trainee') }));
    // A few mistype first.
    for (const t of trainees.slice(0, 3))
      expectProblem(
        await from('198.51.100.7').send({ email: t.email, password: 'a typo in it' }),
        401,
        'invalid_credentials',
      );
    const answers = await Promise.all(
      trainees.map((t) => from('198.51.100.7').send({ email: t.email, password: t.password })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(25).fill(200));
    // And again, a second session each (another headset), still from the same address.
    const again = await Promise.all(
      trainees.map((t) => from('198.51.100.7').send({ email: t.email, password: t.password })),
    );
    expect(again.map((r) => r.status)).toEqual(Array(25).fill(200));
  }, 120_000);

  it('does not let 100 wrong passwords from 100 addresses lock the owner out: the owner signs in from a fresh address at once', async () => {
    const owner = await createAccount(stack, { email: uniqueEmail('target') });
    const wrong = await inBatches(100, 10, (i) =>
      from(`10.40.${Math.floor(i / 200)}.${i % 200}`).send({ email: owner.email, password: `guess number ${i}` }),
    );
    expect(new Set(wrong.map((r) => r.status))).toEqual(new Set([401]));

    const started = Date.now();
    const res = await from('203.0.113.50').send({ email: owner.email, password: owner.password });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5000);
    // The guessing addresses are slowed down on this account, for a bounded time (SIGNIN_DELAY_MAX_SECONDS).
    const guesser = await from('10.40.0.1').send({ email: owner.email, password: 'one more guess' });
    const guessed = await from('10.40.0.1').send({ email: owner.email, password: 'and another one' });
    expectProblem(guessed, 429, 'rate_limited');
    expect(retryAfter(guessed)).toBeGreaterThan(0);
    expect(retryAfter(guessed)).toBeLessThanOrEqual(60);
    expectProblem(guesser, 401, 'invalid_credentials');
  }, 120_000);
});

describe('sign-in throttling: per address, per (account, address), per account', () => {
  let stack: TestStack;
  const limits = {
    SIGNIN_FAILURES_PER_ADDRESS: '8',
    SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS: '3',
    RATE_LIMIT_AUTH_PER_MINUTE: '3',
  };
  beforeAll(async () => {
    stack = await startStack({ env: limits, workers: false });
  });
  afterAll(() => stack.close());

  const from = (ip: string) => stack.http.post('/auth/login').set('X-Forwarded-For', ip);

  it('stops one address spraying many accounts, counting its failures only', async () => {
    const real = await createAccount(stack);
    // Successes cost nothing.
    for (let i = 0; i < 8; i++)
      expect((await from('10.1.1.1').send({ email: real.email, password: real.password })).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++)
      statuses.push(
        (await from('10.1.1.1').send({ email: uniqueEmail('spray'), password: 'whatever-password' })).status,
      );
    expect(statuses).toEqual([...Array(8).fill(401), 429]);
    // Over its limit, the address is stopped whatever it sends (else the answer would tell a right guess).
    const limited = await from('10.1.1.1').send({ email: real.email, password: real.password });
    expectProblem(limited, 429, 'rate_limited');
    expect(retryAfter(limited)).toBeGreaterThan(0);
    expect(retryAfter(limited)).toBeLessThanOrEqual(900);
    // Other addresses are not affected.
    expect((await from('10.1.1.2').send({ email: real.email, password: real.password })).status).toBe(200);
  });

  it('stops one address guessing one account; the owner elsewhere is not affected, and a success clears the count', async () => {
    const a = await createAccount(stack);
    for (let i = 0; i < 2; i++)
      expectProblem(
        await from('10.0.0.1').send({ email: a.email, password: 'wrong-password' }),
        401,
        'invalid_credentials',
      );
    expect((await from('10.0.0.1').send({ email: a.email, password: a.password })).status).toBe(200);
    for (let i = 0; i < 3; i++)
      expectProblem(
        await from('10.0.0.1').send({ email: a.email, password: 'wrong-password' }),
        401,
        'invalid_credentials',
      );
    expectProblem(
      await from('10.0.0.1').send({ email: a.email.toUpperCase(), password: a.password }),
      429,
      'rate_limited',
    );
    for (let i = 0; i < 3; i++)
      expect((await from('10.0.0.2').send({ email: a.email, password: a.password })).status).toBe(200);
    const b = await createAccount(stack);
    expect((await from('10.0.0.1').send({ email: b.email, password: b.password })).status).toBe(200);
  });

  it('counts a burst of parallel guesses before answering any: no more get through than the limit', async () => {
    const a = await createAccount(stack);
    const burst = await Promise.all(
      Array.from({ length: 12 }, () => from('10.5.5.5').send({ email: a.email, password: 'wrong-password' })),
    );
    const statuses = burst.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(3).fill(401), ...Array(9).fill(429)]);
  });

  it("throttles the internal login bridge by the end user's reported address", async () => {
    const a = await createAccount(stack);
    const bridge = (ip: string, password: string) =>
      stack.http
        .post('/auth/internal/login')
        .set('X-Internal-Secret', TEST_INTERNAL_SECRET)
        .send({ email: a.email, password, ip });
    for (let i = 0; i < 3; i++) expectProblem(await bridge('192.0.2.7', 'wrong-password'), 401, 'invalid_credentials');
    expectProblem(await bridge('192.0.2.7', a.password), 429, 'rate_limited');
    expect((await bridge('192.0.2.8', a.password)).status).toBe(200);
  });

  it('lets a classroom confirm its addresses and reset its passwords from one address (only failures count)', async () => {
    const em = stack.services.orm.em.fork();
    const users = await Promise.all(Array.from({ length: 5 }, () => createAccount(stack)));
    const accounts = await em.find(User, { id: { $in: users.map((u) => u.user.id) } });
    const confirm = await Promise.all(accounts.map((u) => issueEmailToken(em, u, 'confirm_email')));
    const reset = await Promise.all(accounts.map((u) => issueEmailToken(em, u, 'reset_password')));
    await em.flush();
    for (const token of confirm)
      expect(
        (await stack.http.post('/auth/confirm-email').set('X-Forwarded-For', '10.7.7.7').send({ token })).status,
      ).toBe(200);
    for (const token of reset)
      expect(
        (
          await stack.http
            .post('/auth/reset-password')
            .set('X-Forwarded-For', '10.7.7.7')
            .send({ token, password: 'a brand new passphrase' })
        ).status,
      ).toBe(200);
    // Guessing tokens is still limited per address.
    const guesses: number[] = [];
    for (let i = 0; i < 4; i++)
      guesses.push(
        (
          await stack.http
            .post('/auth/confirm-email')
            .set('X-Forwarded-For', '10.7.7.8')
            .send({ token: `not-a-real-token-${i}-xxxxxxxxxxxx` })
        ).status,
      );
    expect(guesses).toEqual([400, 400, 400, 429]);
  });
});

describe('sign-in throttling: the progressive delay per account', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({
      env: { SIGNIN_FAILURES_BEFORE_DELAY: '4', SIGNIN_DELAY_MAX_SECONDS: '8' },
      workers: false,
    });
    owner = await createAccount(stack, { email: uniqueEmail('owner') });
  });
  afterAll(() => stack.close());

  const from = (ip: string) => stack.http.post('/auth/login').set('X-Forwarded-For', ip);
  const guess = (ip: string) => from(ip).send({ email: owner.email, password: 'a wrong guess' });
  /** Waits until the address may try again (429 answers are not counted), and tries. */
  const nextGuess = (ip: string) =>
    eventually(async () => ((await guess(ip)).status === 401 ? true : null), {
      what: `${ip} allowed again`,
      intervalMs: 200,
    });

  it('slows the addresses that failed on an account, doubling up to the maximum, and never delays a fresh one', async () => {
    for (let i = 1; i <= 4; i++) expectProblem(await guess(`10.9.0.${i}`), 401, 'invalid_credentials');
    // Over the threshold, an address that failed here waits 1 s, then 2 s, ... between attempts.
    expectProblem(await guess('10.9.0.1'), 401, 'invalid_credentials');
    const first = await guess('10.9.0.1');
    expectProblem(first, 429, 'rate_limited');
    expect(retryAfter(first)).toBe(1);
    await nextGuess('10.9.0.2');
    const second = await guess('10.9.0.3');
    expectProblem(second, 429, 'rate_limited');
    expect(retryAfter(second)).toBe(2);
    // The owner, from an address that never failed here, is not delayed.
    expect((await from('203.0.113.9').send({ email: owner.email, password: owner.password })).status).toBe(200);

    // Many more failures from fresh addresses: the delay stops at SIGNIN_DELAY_MAX_SECONDS.
    for (let i = 1; i <= 12; i++) expectProblem(await guess(`10.10.0.${i}`), 401, 'invalid_credentials');
    await nextGuess('10.9.0.1');
    const capped = await guess('10.9.0.4');
    expectProblem(capped, 429, 'rate_limited');
    expect(retryAfter(capped)).toBe(8);
    // Even the owner, from an address that failed here, waits no longer than that.
    const ownerTainted = await from('10.9.0.2').send({ email: owner.email, password: owner.password });
    expectProblem(ownerTainted, 429, 'rate_limited');
    expect(retryAfter(ownerTainted)).toBeLessThanOrEqual(8);
    expect((await from('203.0.113.10').send({ email: owner.email, password: owner.password })).status).toBe(200);
  });
});

describe('sign-in throttling during an outage', () => {
  let stack: TestStack;
  let pg: TcpProxy;
  let redis: TcpProxy;
  let owner: Account;
  beforeAll(async () => {
    pg = await startProxy('postgres://127.0.0.1:5432');
    redis = await startProxy('redis://127.0.0.1:6379');
    stack = await startStack({
      workers: false,
      via: { postgres: pg, redis },
      env: { SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS: '1' },
    });
    owner = await createAccount(stack);
  });
  afterAll(async () => {
    await pg.up();
    await redis.up();
    await stack.close();
    await pg.close();
    await redis.close();
  });

  const attempt = (password: string) =>
    stack.http
      .post('/auth/login')
      .set('X-Forwarded-For', '10.66.0.1')
      .send({ email: owner.email, password })
      .timeout(10_000);
  /** 503 without a hang: within the request bounds (500/600 ms), or the 2 s connect timeout of a Redis reconnecting, plus a loaded machine's scheduling. */
  const fast503 = async (password: string, boundMs: number) => {
    const started = Date.now();
    expectProblem(await attempt(password), 503, 'dependency_unavailable');
    expect(Date.now() - started).toBeLessThan(boundMs);
  };

  it('answers 503 fast with Redis or PostgreSQL down, and counts no failure for an attempt that could not be checked', async () => {
    await redis.down();
    await fast503(owner.password, 5000);
    await fast503(owner.password, 5000);
    await redis.up();
    await eventually(() => stack.services.redis.status === 'ready', { what: 'Redis back' });
    await pg.down();
    await fast503('a wrong guess', 1500);
    await pg.up();
    // The attempt during the PostgreSQL outage was not counted: this address still has its one failure to make.
    await eventually(async () => (await attempt('a wrong guess')).status === 401, {
      what: 'PostgreSQL back',
      intervalMs: 100,
    });
    expectProblem(await attempt(owner.password), 429, 'rate_limited');
  });
});
