import { Membership } from '../../entities/identity/organization';
import { addMember, bearer, createAccount, uniqueEmail, type Account } from '../support/factories';
import { deliveredMail, linkToken, relaxedLimits } from '../support/identity';
import { setSubscription } from '../support/billing';
import { startStack, type TestStack } from '../support/stack';

/**
 * The tier limit `seats` ("Members an organisation may have", api/billing/dtos.ts; free: 3, starter: 10 ...)
 * is published in GET /api/entitlements/me; invitations and acceptances past it are refused (regression: it was enforced nowhere).
 */
describe('the seats limit of the tier', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ env: relaxedLimits });
    owner = await createAccount(stack); // free tier
  });
  afterAll(() => stack.close());

  async function join(email: string) {
    await stack.http.post('/auth/register').send({ email, password: 'newcomer-password' }).expect(202);
    const login = await stack.http.post('/auth/login').send({ email, password: 'newcomer-password' });
    const invited = await stack.http
      .post(`/orgs/${owner.tenantId}/invite`)
      .set(owner.auth)
      .send({ email, role: 'member' });
    if (invited.status !== 201) return invited;
    const token = linkToken(await deliveredMail(stack, email, 'invitation'));
    return stack.http.post('/orgs/invites/accept').set(bearer(login.body.accessToken)).send({ token });
  }

  it('does not let a free organisation (seats: 3) grow past 3 members', async () => {
    const ent = await stack.http.get('/api/entitlements/me').set(owner.auth);
    expect(ent.body.tier).toBe('free');
    const seats = ent.body.limits.seats as number;
    expect(seats).toBe(3);

    const statuses: number[] = [];
    for (let i = 0; i < seats + 1; i++) statuses.push((await join(uniqueEmail(`seat${i}`))).status);
    const members = await stack.services.orm.em
      .fork()
      .count(Membership, { tenantId: owner.tenantId }, { filters: false });

    // The owner holds one seat: only seats - 1 invitees fit; the others must be refused (409 or 403).
    expect(members).toBeLessThanOrEqual(seats);
    expect(statuses.slice(seats - 1).every((s) => s === 409 || s === 403)).toBe(true);
  });

  it('checks the seats again on acceptance, and after a downgrade keeps the members but admits no new one', async () => {
    const org = await createAccount(stack);
    await setSubscription(stack, org.tenantId, { tier: 'starter' });
    const email = uniqueEmail('late');
    await stack.http.post('/auth/register').send({ email, password: 'newcomer-password' }).expect(202);
    const login = await stack.http.post('/auth/login').send({ email, password: 'newcomer-password' });
    expect(
      (await stack.http.post(`/orgs/${org.tenantId}/invite`).set(org.auth).send({ email, role: 'member' })).status,
    ).toBe(201);
    const token = linkToken(await deliveredMail(stack, email, 'invitation'));
    for (let i = 0; i < 3; i++) await addMember(stack, org);
    // Back on free (seats: 3) with 4 members: all stay, the pending invitation cannot be accepted, no new one sent.
    await setSubscription(stack, org.tenantId, { tier: 'free' });
    const accepted = await stack.http.post('/orgs/invites/accept').set(bearer(login.body.accessToken)).send({ token });
    expect(accepted.status).toBe(409);
    expect(accepted.body.code).toBe('seat_limit_reached');
    const invited = await stack.http
      .post(`/orgs/${org.tenantId}/invite`)
      .set(org.auth)
      .send({ email: uniqueEmail('more'), role: 'member' });
    expect(invited.status).toBe(409);
    expect(invited.body.code).toBe('seat_limit_reached');
    expect(await stack.services.orm.em.fork().count(Membership, { tenantId: org.tenantId }, { filters: false })).toBe(
      4,
    );
  });
});
