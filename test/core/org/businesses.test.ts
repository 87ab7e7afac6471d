import { addMember, createAccount, type Account } from '../../support/factories';
import { expectFieldErrors, expectProblem } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';
import { findBusinessBySlug } from '../../../domain/core/org/findBusinessBySlug';
import { getBusiness } from '../../../domain/core/org/getBusiness';
import { tenantContext } from '../../../domain/context';

/** A valid SIREN/SIRET/VAT triple (checksums hold) and an IBAN with a valid key. */
const SIREN = '732829320';
const SIRET = '73282932000074';
const VAT = 'FR44732829320';
const IBAN = 'FR76 3000 6000 0112 3456 7890 189';

describe('core: businesses', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack, { tier: 'pro' });
  });
  afterAll(() => stack.close());

  const business = async (who: Account) =>
    (await stack.http.get('/api/businesses').set(who.auth)).body as { id: string } & Record<string, unknown>;

  it('creates the record on first read with defaults from the organisation', async () => {
    const res = await stack.http.get('/api/businesses').set(owner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: owner.org.name,
      legalName: owner.org.name,
      siren: null,
      timeZone: 'Europe/Paris',
      currency: 'EUR',
      publicSlug: null,
      publicProfile: { published: false },
      activeModules: ['cloud', 'core', 'knowledge', 'vr'],
      entitledModules: ['cloud', 'core', 'knowledge', 'vr'],
    });
    const again = await stack.http.get(`/api/businesses/${res.body.id}`).set(owner.auth);
    expect(again.body).toEqual(res.body);
    // Concurrent first reads make one record.
    const other = await createAccount(stack);
    const ids = await Promise.all(
      [1, 2, 3, 4].map(() => getBusiness(tenantContext(stack.services, other.tenantId)).then((b) => b.id)),
    );
    expect(new Set(ids).size).toBe(1);
  });

  it('edits seller details, normalising identifiers, and members may read but not edit', async () => {
    const { id } = await business(owner);
    const res = await stack.http
      .patch(`/api/businesses/${id}`)
      .set(owner.auth)
      .send({
        legalName: 'Atelier Dupont SAS',
        legalForm: 'SAS',
        siren: SIREN,
        siret: SIRET,
        vatNumber: 'fr 44 732829320',
        iban: IBAN,
        bic: 'bnpafrpp',
        currency: 'chf',
        timeZone: 'America/New_York',
        address: { line1: '1 rue de la Paix', postalCode: '75002', city: 'Paris', country: 'FR' },
        publicProfile: { headline: 'Fine furniture' },
      });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      legalName: 'Atelier Dupont SAS',
      siren: SIREN,
      siret: SIRET,
      vatNumber: VAT,
      iban: 'FR7630006000011234567890189',
      bic: 'BNPAFRPP',
      currency: 'CHF',
      timeZone: 'America/New_York',
      address: {
        line1: '1 rue de la Paix',
        line2: null,
        postalCode: '75002',
        city: 'Paris',
        region: null,
        country: 'FR',
      },
      publicProfile: { published: false, headline: 'Fine furniture', description: null },
    });
    const cleared = await stack.http
      .patch(`/api/businesses/${id}`)
      .set(owner.auth)
      .send({ address: null, legalForm: null });
    expect(cleared.body).toMatchObject({ address: null, legalForm: null, siren: SIREN });

    const member = await addMember(stack, owner, 'member');
    expect((await stack.http.get('/api/businesses').set(member.auth)).body.id).toBe(id);
    expectProblem(
      await stack.http.patch(`/api/businesses/${id}`).set(member.auth).send({ name: 'Mine' }),
      403,
      'permission_denied',
    );
  });

  it('refuses bad input with field errors', async () => {
    const { id } = await business(owner);
    const patch = (body: object) => stack.http.patch(`/api/businesses/${id}`).set(owner.auth).send(body);
    expectFieldErrors(
      await patch({
        siren: '123456789',
        siret: '1234',
        vatNumber: 'XX',
        iban: 'FR00 1234',
        bic: 'nope',
        currency: 'EURO',
        timeZone: 'Mars/Olympus',
        email: 'x',
        website: 'ftp//x',
      }),
      'siren',
      'siret',
      'vatNumber',
      'iban',
      'bic',
      'currency',
      'timeZone',
      'email',
      'website',
    );
    expectFieldErrors(
      await patch({ name: '', legalName: null, address: { line1: 'x' }, unknown: 1 }),
      'name',
      'legalName',
      'address.postalCode',
      'address.city',
      'address.country',
      'unknown',
    );
    expectFieldErrors(await patch({ address: [], publicProfile: [] }), 'address', 'publicProfile');
    // Names are stored trimmed: blanks only were stored empty (the welcome path then greeted "Welcome to ").
    expectFieldErrors(await patch({ name: '   ', legalName: ' ' }), 'name', 'legalName');
    // Consistency between fields.
    expectFieldErrors(await patch({ siren: SIREN, siret: '35600000000048' }), 'siret');
    expectFieldErrors(await patch({ siren: SIREN, vatNumber: 'FR40303265045' }), 'vatNumber');
    expectFieldErrors(await patch({ publicSlug: null, publicProfile: { published: true } }), 'publicProfile.published');
    expect((await stack.http.get('/api/businesses/not-a-uuid').set(owner.auth)).status).toBe(400);
    expectFieldErrors(await stack.http.get('/api/businesses/slug-availability').set(owner.auth), 'slug');
  });

  it('accepts only time zones PostgreSQL knows, so the dashboard keeps answering', async () => {
    const { id } = await business(owner);
    const patch = (timeZone: string) => stack.http.patch(`/api/businesses/${id}`).set(owner.auth).send({ timeZone });
    const before = (await business(owner)).timeZone;
    // Intl and luxon accept this retired name; PostgreSQL's `at time zone` does not.
    expectFieldErrors(await patch('US/Pacific-New'), 'timeZone');
    expect((await business(owner)).timeZone).toBe(before);
    const res = await patch('America/Los_Angeles');
    expect([res.status, res.body.timeZone]).toEqual([200, 'America/Los_Angeles']);
    const summary = await stack.http.get('/api/dashboard/summary').set(owner.auth);
    expect([summary.status, summary.body.timeZone]).toEqual([200, 'America/Los_Angeles']);
  });

  it('keeps public slugs unique across the service, validated, reserved words refused', async () => {
    const { id } = await business(owner);
    const other = await createAccount(stack);
    const otherId = (await business(other)).id;
    const set = (who: Account, bid: string, publicSlug: string | null) =>
      stack.http.patch(`/api/businesses/${bid}`).set(who.auth).send({ publicSlug });

    const res = await set(owner, id, 'Atelier-Dupont');
    expect(res.status).toBe(200);
    expect(res.body.publicSlug).toBe('atelier-dupont');
    expectProblem(await set(other, otherId, 'ATELIER-dupont'), 409, 'slug_taken');
    for (const bad of ['ab', '-abc', 'abc-', 'a--b', 'with space', 'x'.repeat(64), 'caf\u00e9']) {
      expectFieldErrors(await set(other, otherId, bad), 'publicSlug');
    }
    for (const reserved of ['admin', 'api', 'www', 'stores']) {
      const r = await set(other, otherId, reserved);
      expectFieldErrors(r, 'publicSlug');
      expect(JSON.stringify(r.body.errors)).toContain('reserved');
    }
    const check = (who: Account, slug: string) =>
      stack.http.get(`/api/businesses/slug-availability?slug=${encodeURIComponent(slug)}`).set(who.auth);
    expect((await check(other, 'Atelier-Dupont')).body).toEqual({
      slug: 'atelier-dupont',
      available: false,
      reason: 'already used by another business',
    });
    expect((await check(owner, 'atelier-dupont')).body).toMatchObject({ available: true });
    expect((await check(other, 'admin')).body).toMatchObject({ available: false, reason: '"admin" is reserved' });

    // The anonymous lookup finds it in any case; it gives the tenant for internal use only.
    expect(await findBusinessBySlug(stack.services, 'ATELIER-DUPONT')).toMatchObject({
      tenantId: owner.tenantId,
      business: { id },
    });
    expect(await findBusinessBySlug(stack.services, 'nobody-here')).toBeNull();
    expect(await findBusinessBySlug(stack.services, '../x')).toBeNull();

    // Freed, it can be taken by another business.
    expect((await set(owner, id, null)).body.publicSlug).toBeNull();
    expect((await set(other, otherId, 'atelier-dupont')).status).toBe(200);
  });

  it('sets active modules within the entitlements only', async () => {
    const free = await createAccount(stack, { tier: 'free' });
    const { id } = await business(free);
    const set = (modules: string[]) =>
      stack.http.patch(`/api/businesses/${id}/modules`).set(free.auth).send({ modules });
    const refused = expectProblem(await set(['core', 'vr']), 403, 'module_not_entitled');
    expect(refused.detail).toContain('vr');
    expectProblem(await set(['core', 'rh', 'cloud']), 403, 'module_not_entitled');
    expectFieldErrors(await set(['knowledge']), 'modules');
    expectFieldErrors(await set(['core', 'chess']), 'modules');
    expectFieldErrors(await set(['core', 'core']), 'modules');

    const res = await set(['core', 'cloud']);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      activeModules: ['cloud', 'core'],
      entitledModules: ['cloud', 'core', 'knowledge'],
    });
    expect((await business(free)).activeModules).toEqual(['cloud', 'core']);
  });

  it("answers 404 for another organisation's record", async () => {
    const { id } = await business(owner);
    const other = await createAccount(stack);
    expectProblem(await stack.http.get(`/api/businesses/${id}`).set(other.auth), 404, 'not_found');
    expectProblem(
      await stack.http.patch(`/api/businesses/${id}`).set(other.auth).send({ name: 'Taken' }),
      404,
      'not_found',
    );
    expectProblem(
      await stack.http
        .patch(`/api/businesses/${id}/modules`)
        .set(other.auth)
        .send({ modules: ['core'] }),
      404,
      'not_found',
    );
    expect((await business(owner)).name).not.toBe('Taken');
  });
});
