import { request as httpRequest } from 'node:http';
import { runImport } from '../../../domain/core/crm/imports/runImport';
import { createAccount, type Account } from '../../support/factories';
import { startStack, type TestStack } from '../../support/stack';

/**
 * Spreadsheet imports of members: upload (encodings, delimiters, quoting, bad files), preview and suggested
 * mapping, dry run, import by the hub's pipeline, pause / resume / cancel, report and undo. Workers are off: the
 * test runs each import job itself (runImport), so pausing and cancelling are not raced by a worker.
 */
describe('CRM spreadsheet imports', () => {
  let stack: TestStack;
  let org: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    org = await createAccount(stack);
    await stack.http
      .put('/api/customers/fields/seats')
      .set(org.auth)
      .send({ label: 'Seats', type: 'number' })
      .expect(201);
  });
  afterAll(() => stack.close());

  const sql = <T>(text: string, params: unknown[] = []) => stack.services.orm.em.fork().execute<T[]>(text, params);
  const upload = (body: Buffer | string, query = '') =>
    stack.http
      .post(`/api/customers/imports/uploads${query}`)
      .set(org.auth)
      .set('Content-Type', 'text/csv')
      .send(Buffer.isBuffer(body) ? body : Buffer.from(body));
  const run = (importId: string) => runImport(stack.services, { importId, tenantId: org.tenantId, kind: 'customers' });
  const report = async (importId: string) =>
    (await stack.http.get(`/api/customers/imports/${importId}`).set(org.auth).expect(200)).body as {
      status: string;
      created: number;
      failed: number;
      processed: number;
      total: number;
      errors: { index: number; field: string }[];
    };
  const countNamed = async (prefix: string) =>
    (
      await sql<{ n: number }>('select count(*)::int as n from crm_customers where tenant_id = ? and name like ?', [
        org.tenantId,
        `${prefix}%`,
      ])
    )[0].n;

  it('previews a UTF-8 file with a BOM, semicolons and quoted fields, dry-runs it and imports it whole', async () => {
    const csv =
      '\uFEFFNom;E-mail;Téléphone;Seats;Notes;Comment\r\n' +
      'Zoé Martin;zoe@example.test;+33 6 12 34 56 78;3;"vip;gold";"line one\nline; two"\r\n' +
      '"Paul ""PJ"" Durand";pj@example.test;;=1+2;x;\r\n' +
      'Bad Mail;not-an-address;;2;;\r\n' +
      '\r\n' +
      'Formula Co;f@example.test;;1;=HYPERLINK("http://evil");\r\n';
    const res = await upload(csv, '?fileName=contacts.csv');
    expect([res.status, res.body.detail]).toEqual([201, undefined]);
    expect(res.body).toMatchObject({
      fileName: 'contacts.csv',
      encoding: 'utf-8',
      delimiter: ';',
      rows: 4,
      columns: ['Nom', 'E-mail', 'Téléphone', 'Seats', 'Notes', 'Comment'],
      suggestedMapping: ['name', 'email', 'phone', 'custom.seats', 'ignore', 'ignore'],
    });
    expect(res.body.sample[0]).toEqual([
      'Zoé Martin',
      'zoe@example.test',
      '+33 6 12 34 56 78',
      '3',
      'vip;gold',
      'line one\nline; two',
    ]);
    expect(res.body.sample[1][0]).toBe('Paul "PJ" Durand');
    const id = res.body.id as string;
    const mapping = ['name', 'email', 'phone', 'custom.seats', 'tags', 'ignore'];

    const dry = await stack.http.post(`/api/customers/imports/uploads/${id}/check`).set(org.auth).send({ mapping });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ rows: 4, valid: 2, invalid: 2, neutralised: 1 });
    expect(dry.body.errors).toEqual([
      expect.objectContaining({ index: 4, field: 'custom.seats' }),
      expect.objectContaining({ index: 5, field: 'emails[0].value' }),
    ]);
    expect(await countNamed('Zoé')).toBe(0);

    const refused = await stack.http
      .post(`/api/customers/imports/uploads/${id}/import`)
      .set(org.auth)
      .send({ mapping });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('rows_invalid');
    expect(await sql('select 1 from crm_imports where tenant_id = ?', [org.tenantId])).toHaveLength(0);

    const bad = await stack.http
      .post(`/api/customers/imports/uploads/${id}/check`)
      .set(org.auth)
      .send({ mapping: ['email', 'custom.nope'] });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('mapping_invalid');

    const started = await stack.http
      .post(`/api/customers/imports/uploads/${id}/import`)
      .set(org.auth)
      .send({ mapping, skipBadRows: true });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ status: 'queued', total: 4, failed: 2, processed: 2, uploadId: id });
    await run(started.body.id);
    const done = await report(started.body.id);
    expect(done).toMatchObject({ status: 'completed', created: 2, failed: 2, processed: 4 });
    const [zoe] = await sql<{ phones: { value: string }[]; custom: object; tags: string[]; import_id: string }>(
      "select phones, custom, tags, import_id from crm_customers where tenant_id = ? and name = 'Zoé Martin'",
      [org.tenantId],
    );
    expect(zoe).toMatchObject({ custom: { seats: 3 }, tags: ['vip', 'gold'], import_id: started.body.id });
    expect(zoe.phones[0].value).toBe('+33 6 12 34 56 78');
    const [formula] = await sql<{ tags: string[] }>(
      "select tags from crm_customers where tenant_id = ? and name = 'Formula Co'",
      [org.tenantId],
    );
    expect(formula.tags).toEqual([`'=hyperlink("http://evil")`]);

    // Imported once: the upload answers 409, its preview shows the import.
    const again = await stack.http.post(`/api/customers/imports/uploads/${id}/check`).set(org.auth).send({ mapping });
    expect(again.status).toBe(409);
    expect((await stack.http.get(`/api/customers/imports/uploads/${id}`).set(org.auth)).body.importId).toBe(
      started.body.id,
    );

    // Undo deletes what it created.
    const undone = await stack.http.post(`/api/customers/imports/${started.body.id}/undo`).set(org.auth);
    expect(undone.status).toBe(200);
    expect(undone.body.status).toBe('undone');
    expect(await countNamed('Zoé')).toBe(0);
    expect(await countNamed('Formula')).toBe(0);
  });

  it('refuses files that are not CSV, of another encoding, broken or too large, and keeps nothing of them', async () => {
    const xlsx = await upload(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]));
    expect([xlsx.status, xlsx.body.code]).toEqual([422, 'not_csv']);
    const latin = Buffer.from('name,city\nRen\xe9,Li\xe8ge\n', 'latin1');
    const wrong = await upload(latin);
    expect([wrong.status, wrong.body.code]).toEqual([422, 'encoding_invalid']);
    const right = await upload(latin, '?encoding=windows-1252');
    expect(right.status).toBe(201);
    expect(right.body.sample).toEqual([['René', 'Liège']]);
    const utf16 = await upload(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('name\tmail\nAda\ta@b.test\n', 'utf16le')]),
    );
    expect(utf16.body).toMatchObject({ encoding: 'utf-16le', delimiter: '\t', rows: 1 });
    const broken = await upload('name,email\n"Ada,ada@example.test\nBob,bob@example.test\n');
    expect([broken.status, broken.body.code]).toEqual([422, 'csv_invalid']);
    // 500 MB announced: refused from Content-Length, before a byte of it is read.
    const huge = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${stack.url}/api/customers/imports/uploads`, {
        method: 'POST',
        headers: { ...org.auth, 'Content-Type': 'text/csv', 'Content-Length': String(500 * 1024 * 1024) },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.write('name\nAda\n');
    });
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.body).code).toBe('file_too_large');
    const kept = await sql<{ n: number }>('select count(*)::int as n from crm_import_uploads where tenant_id = ?', [
      org.tenantId,
    ]);
    // The first test's upload and the two read in full (windows-1252, UTF-16).
    expect(kept[0].n).toBe(3);
  });

  it('pauses, resumes and cancels an import between its parts', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => `Paused ${i},p${i}@example.test`).join('\n');
    const up = await upload(`name,email\n${rows}\n`);
    expect(up.body.rows).toBe(2500);
    const started = await stack.http
      .post(`/api/customers/imports/uploads/${up.body.id}/import`)
      .set(org.auth)
      .send({ mapping: ['name', 'email'] });
    expect(started.status).toBe(202);
    const id = started.body.id as string;
    expect((await stack.http.post(`/api/customers/imports/${id}/pause`).set(org.auth)).body.status).toBe('paused');
    await run(id);
    expect(await report(id)).toMatchObject({ status: 'paused', created: 0 });
    expect((await stack.http.post(`/api/customers/imports/${id}/undo`).set(org.auth)).body.code).toBe(
      'import_not_finished',
    );
    expect((await stack.http.post(`/api/customers/imports/${id}/resume`).set(org.auth)).body.status).toBe('queued');
    await run(id);
    expect(await report(id)).toMatchObject({ status: 'completed', created: 2500, processed: 2500 });
    expect(await countNamed('Paused')).toBe(2500);
    expect((await stack.http.post(`/api/customers/imports/${id}/pause`).set(org.auth)).body.code).toBe(
      'import_not_running',
    );

    const second = await upload(`name\n${Array.from({ length: 1500 }, (_, i) => `Cancelled ${i}`).join('\n')}\n`);
    const other = await stack.http
      .post(`/api/customers/imports/uploads/${second.body.id}/import`)
      .set(org.auth)
      .send({ mapping: ['name'] });
    const cancelled = await stack.http.post(`/api/customers/imports/${other.body.id}/cancel`).set(org.auth);
    expect(cancelled.body.status).toBe('cancelled');
    await run(other.body.id);
    expect(await report(other.body.id)).toMatchObject({ status: 'cancelled', created: 0 });
    expect(await countNamed('Cancelled')).toBe(0);
    expect(await sql('select 1 from crm_import_payloads where import_id = ?', [other.body.id])).toHaveLength(0);
  });
});
