import { addDays } from '../../../lib/calendar';
import { invoiceToday } from '../../../domain/core/invoices/lookup';
import { invoiceRemindersQueue } from '../../../queues/invoices';
import { finishedJob } from '../../support/billing';
import { mailsTo } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';
import type { Account } from '../../support/factories';
import { customerOf, invoicingOrg, issued } from './support';

/** Enqueues one pass of the reminders job, as the clock does, and waits for it. */
async function runPass(stack: TestStack, slot: string): Promise<number> {
  await stack.services.queues.add(invoiceRemindersQueue, { slot }, { jobId: `invoice-reminders-${slot}` });
  const job = await finishedJob(stack, invoiceRemindersQueue, `invoice-reminders-${slot}`);
  expect(job.failedReason).toBeUndefined();
  return (job.returnvalue as { reminded: number }).reminded;
}

describe('payment reminders', () => {
  let stack: TestStack;
  let org: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: [invoiceRemindersQueue.name] });
    org = await invoicingOrg(stack);
  });
  afterAll(() => stack.close());

  it('mails the step an open invoice is at once, however often the job runs, and puts it on the timeline', async () => {
    const today = invoiceToday();
    const customer = await customerOf(stack, org, { name: 'Relance SARL' });
    const open = await issued(stack, org, customer.id, { dueDate: addDays(today, 3) });
    const paid = await issued(stack, org, customer.id, { dueDate: addDays(today, 3) });
    expect((await stack.http.post(`/api/invoices/${paid.id}/pay`).set(org.auth).send({})).status).toBe(200);
    const credited = await issued(stack, org, customer.id, { dueDate: today });
    const credit = await stack.http
      .post(`/api/invoices/${credited.id}/credit-note`)
      .set(org.auth)
      .send({ reason: 'Annulée' });
    expect(credit.status).toBe(201);

    const first = await runPass(stack, 'a');
    const second = await runPass(stack, 'b');
    expect(first).toBeGreaterThanOrEqual(1);
    expect(second).toBe(0);

    const mails = await mailsTo(stack, customer.primaryEmail!, 'invoice_reminder');
    expect(mails.map((m) => m.subject)).toEqual([`Rappel : facture ${open.number} - Atelier Dupont SAS`]);
    expect(mails[0].text).toContain('L441-10');
    expect(mails[0].text).toContain('40 euros');
    expect(mails[0].text).toContain('majoré de 10 points');
    const rows = await stack.services.orm.em
      .fork()
      .getConnection()
      .execute('select invoice_id, offset_days, mail_id from inv_reminders where tenant_id = ?', [org.tenantId]);
    expect(rows).toEqual([{ invoice_id: open.id, offset_days: -3, mail_id: mails[0].id }]);

    const timeline = await stack.http
      .get(`/api/customers/${customer.id}/timeline?sources=invoice_reminder`)
      .set(org.auth);
    expect(timeline.status).toBe(200);
    expect(timeline.body.items).toEqual([
      expect.objectContaining({
        source: 'invoice_reminder',
        type: 'upcoming',
        data: expect.objectContaining({ number: open.number, offsetDays: -3 }),
      }),
    ]);
  });

  it('sends nothing when the organisation turns reminders off', async () => {
    const other = await invoicingOrg(stack);
    const put = await stack.http
      .put('/api/invoices/accounting/settings')
      .set(other.auth)
      .send({ remindersEnabled: false });
    expect(put.status).toBe(200);
    const customer = await customerOf(stack, other);
    await issued(stack, other, customer.id, { dueDate: invoiceToday() });
    await runPass(stack, 'c');
    expect(await mailsTo(stack, customer.primaryEmail!, 'invoice_reminder')).toEqual([]);
  });
});
