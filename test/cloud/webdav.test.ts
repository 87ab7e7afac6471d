import { spawn } from 'node:child_process';
import { purgeNodes } from '../../domain/cloud/purge';
import { CloudNode } from '../../entities/cloud/node';
import { CloudFileVersion } from '../../entities/cloud/version';
import { createAppPassword } from '../support/appPasswords';
import { setTierQuota } from '../support/cloud';
import { createAccount, type Account } from '../support/factories';
import { s3Env, startS3, type S3Server } from '../support/s3';
import { startStack, type TestStack } from '../support/stack';
import { scaled } from '../support/timeScale';

/** Runs litmus (the WebDAV test suite, a third-party client) against a URL: its exit code and output. */
function litmus(
  url: string,
  login: string,
  password: string,
  suites: string[],
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/litmus', ['-k', url, login, password], {
      env: { ...process.env, TESTS: suites.join(' ') },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/**
 * WebDAV over the drive, from real clients' side: litmus (basic, copymove, props, locks, http) on both storage
 * adapters, the quota kept by PUT, ranges, app-password sign-in per organisation, and the protocol's errors.
 */
describe.each(['local', 's3'] as const)('WebDAV (%s storage)', (driver) => {
  let s3: S3Server | null = null;
  let stack: TestStack;
  let owner: Account;
  let basic: string;
  let root: string;
  beforeAll(async () => {
    if (driver === 's3') s3 = await startS3();
    stack = await startStack({ workers: false, env: { ...s3Env(s3, 'webdav'), DAV_XML_MAX_BYTES: '65536' } });
    await stack.services.storage.ensureBucket();
    owner = await createAccount(stack);
    const app = await createAppPassword(stack, owner, ['webdav']);
    basic = `Basic ${Buffer.from(`${app.login}:${app.password}`).toString('base64')}`;
    root = `${stack.url}/dav/files`;
  });
  afterAll(async () => {
    await stack?.close();
    await s3?.close();
  });

  const dav = (method: string, path: string, init: { headers?: Record<string, string>; body?: string | Buffer } = {}) =>
    fetch(`${root}${path}`, { method, headers: { Authorization: basic, ...init.headers }, body: init.body });

  // Every suite on the default adapter; on S3 the suites whose bytes go through storage (PUT, GET, COPY, MOVE).
  const suites = driver === 'local' ? ['basic', 'copymove', 'props', 'locks', 'http'] : ['basic', 'copymove'];
  it(
    `passes litmus: ${suites.join(', ')}`,
    async () => {
      const [login, password] = atob(basic.slice(6)).split(':');
      const { code, output } = await litmus(`${root}/`, login, password, suites);
      const summaries = output.split('\n').filter((l) => l.startsWith('<- summary'));
      expect(summaries).toHaveLength(suites.length);
      for (const line of summaries) expect(line).toMatch(/, 0 failed\. 100\.0%/);
      expect(code).toBe(0);
    },
    scaled(60_000),
  );

  it('keeps the quota: a PUT reserves and settles, an overwrite keeps the previous content as a version, past the quota is 507', async () => {
    const member = await createAccount(stack, { tier: 'starter' });
    await setTierQuota(stack, 'starter', 1000, [member.tenantId]);
    const app = await createAppPassword(stack, member, ['webdav']);
    const auth = `Basic ${Buffer.from(`${app.login}:${app.password}`).toString('base64')}`;
    const dav = (
      method: string,
      path: string,
      init: { headers?: Record<string, string>; body?: string | Buffer } = {},
    ) => fetch(`${root}${path}`, { method, headers: { Authorization: auth, ...init.headers }, body: init.body });
    const quota = async () => (await stack.http.get('/api/cloud/quota').set(member.auth)).body;
    expect((await dav('MKCOL', '/quota')).status).toBe(201);
    expect((await dav('PUT', '/quota/a.txt', { body: 'a'.repeat(600) })).status).toBe(201);
    expect(await quota()).toMatchObject({ usedBytes: 600, reservedBytes: 0 });
    const put = await dav('PUT', '/quota/a.txt', { body: '0123456789', headers: { 'Content-Type': 'text/plain' } });
    expect(put.status).toBe(204);
    // The previous content is kept as a version (its author and time), its bytes still counted.
    expect(await quota()).toMatchObject({ usedBytes: 610, reservedBytes: 0 });
    const [file] = await stack.services.orm.em
      .fork()
      .find(CloudNode, { tenantId: member.tenantId, name: 'a.txt' }, { filters: false });
    const versions = await stack.services.orm.em.fork().find(CloudFileVersion, { fileId: file.id }, { filters: false });
    expect(versions).toEqual([
      expect.objectContaining({ size: 600, authorId: member.user.id, contentType: 'text/plain' }),
    ]);

    const refused = await dav('PUT', '/quota/big.bin', { body: Buffer.alloc(391) });
    expect(refused.status).toBe(507);
    expect(await refused.text()).toContain('<d:quota-not-exceeded/>');
    expect(await quota()).toMatchObject({ usedBytes: 610, reservedBytes: 0 });
    expect((await dav('HEAD', '/quota/big.bin')).status).toBe(404);

    // Ranges, and the file as the JSON API lists it.
    const range = await dav('GET', '/quota/a.txt', { headers: { Range: 'bytes=2-4' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe('bytes 2-4/10');
    expect(await range.text()).toBe('234');
    expect((await dav('GET', '/quota/a.txt', { headers: { Range: 'bytes=10-' } })).status).toBe(416);
    const listed = await stack.http.get('/api/cloud/folders/contents').set(member.auth);
    expect(listed.body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'quota', type: 'folder' })]),
    );

    // Purging the file takes its versions with it: objects, rows and bytes.
    expect((await dav('DELETE', '/quota/a.txt')).status).toBe(204);
    await purgeNodes(stack.services, member.tenantId, { ids: [file.id] });
    expect(await quota()).toMatchObject({ usedBytes: 0, reservedBytes: 0 });
    expect(await stack.services.orm.em.fork().count(CloudFileVersion, { fileId: file.id }, { filters: false })).toBe(0);
    expect(await stack.services.storage.stat(versions[0].objectKey)).toBeNull();
  });

  it("signs in with an app password only, each member inside their own organisation's drive", async () => {
    const noAuth = await fetch(`${root}/`, { method: 'PROPFIND', headers: { Depth: '0' } });
    expect(noAuth.status).toBe(401);
    expect(noAuth.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    const wrong = `Basic ${Buffer.from(`${owner.email}:ps_wrong`).toString('base64')}`;
    expect((await fetch(`${root}/`, { method: 'PROPFIND', headers: { Authorization: wrong } })).status).toBe(401);
    expect((await fetch(`${root}/`, { method: 'PROPFIND', headers: owner.auth })).status).toBe(401);

    expect((await dav('PUT', '/mine.txt', { body: 'secret of A' })).status).toBe(201);
    const stranger = await createAccount(stack);
    const theirs = await createAppPassword(stack, stranger, ['webdav']);
    const other = { Authorization: `Basic ${Buffer.from(`${theirs.login}:${theirs.password}`).toString('base64')}` };
    expect((await fetch(`${root}/mine.txt`, { headers: other })).status).toBe(404);
    const listing = await fetch(`${root}/`, { method: 'PROPFIND', headers: { ...other, Depth: '1' } });
    expect(listing.status).toBe(207);
    expect(await listing.text()).not.toContain('mine.txt');
    expect((await fetch(`${root}/mine.txt`, { method: 'DELETE', headers: other })).status).toBe(404);
    expect(await (await dav('GET', '/mine.txt')).text()).toBe('secret of A');
  });

  it('answers bad XML, traversal in Destination and oversized bodies with the protocol errors', async () => {
    const bad = await dav('PROPFIND', '/', { body: '<d:propfind xmlns:d="DAV:"><d:prop></d:propfind>' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(await bad.text()).toContain('xml_invalid');
    expect((await dav('PROPFIND', '/', { body: '<!DOCTYPE a [<!ENTITY x "x">]><a>&x;</a>' })).status).toBe(400);

    expect((await dav('PUT', '/t.txt', { body: 't' })).status).toBe(201);
    for (const destination of [`${stack.url}/dav/files/../../etc/passwd`, '/dav/files/%2e%2e/%2e%2e/x', '/api/cloud/x'])
      expect((await dav('MOVE', '/t.txt', { headers: { Destination: destination } })).status).toBe(403);
    expect(
      (await dav('COPY', '/t.txt', { headers: { Destination: 'http://elsewhere.test/dav/files/t2' } })).status,
    ).toBe(502);
    expect((await dav('GET', '/a%2F..%2F..%2Fetc')).status).toBe(400);

    const huge = `<d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><x:p xmlns:x="urn:x">${'x'.repeat(70_000)}</x:p></d:prop></d:set></d:propertyupdate>`;
    expect((await dav('PROPPATCH', '/t.txt', { body: huge })).status).toBe(413);
    expect((await dav('PROPFIND', '/', { headers: { Depth: 'infinity' } })).status).toBe(403);
  });
});
