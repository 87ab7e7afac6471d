import { createAccount, type Account } from '../../support/factories';
import { makeCustomer, makeDeal, makePipeline } from '../../support/crm';
import { startStack, type TestStack } from '../../support/stack';
import { customerOf, draft, invoicingOrg, line } from '../invoices/support';

/**
 * A row that exists is never "not found" because another request changed it while this one waited for its
 * lock: concurrent moves of one deal wait their turn and each applies to the state the previous one left
 * (before the fix, the waiting reads re-checked a join on the deal's old stage and answered 404).
 */
describe('CRM regression: concurrent transitions of one deal', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
  });
  afterAll(() => stack.close());

  const history = async (id: string) =>
    (await stack.http.get(`/api/deals/${id}`).set(owner.auth).expect(200)).body as {
      stageId: string;
      history: { type: string; fromStageId: string | null; toStageId: string | null }[];
    };

  it('applies 30 concurrent moves one after the other, each answered 200 with its stage', async () => {
    const p = await makePipeline(stack, owner);
    const customer = await makeCustomer(stack, owner);
    const deal = await makeDeal(stack, owner, { customerId: customer.id, stageId: p.stages[0].id });
    const targets = Array.from({ length: 30 }, (_, i) => p.stages[(i + 1) % 3].id);
    const answers = await Promise.all(
      targets.map((stageId) => stack.http.post(`/api/deals/${deal.id}/move`).set(owner.auth).send({ stageId })),
    );
    expect(answers.map((a) => a.status)).toEqual(targets.map(() => 200));
    expect(answers.map((a) => a.body.stageId)).toEqual(targets);
    // The history is one chain: every move starts where the previous one ended, and the deal is where the last ended.
    const after = await history(deal.id);
    const moves = after.history.filter((e) => e.type === 'moved');
    expect(moves.length).toBeGreaterThan(0);
    moves.forEach((m, i) => expect(m.fromStageId).toBe(i === 0 ? p.stages[0].id : moves[i - 1].toStageId));
    expect(after.stageId).toBe(moves.at(-1)!.toStageId);
  });

  it('answers the moves that lose to a concurrent win 409 invalid_transition, never 404', async () => {
    const p = await makePipeline(stack, owner);
    const customer = await makeCustomer(stack, owner);
    const deal = await makeDeal(stack, owner, { customerId: customer.id, stageId: p.stages[0].id });
    const moves = Array.from({ length: 10 }, (_, i) =>
      stack.http
        .post(`/api/deals/${deal.id}/move`)
        .set(owner.auth)
        .send({ stageId: p.stages[(i % 2) + 1].id }),
    );
    const win = stack.http.post(`/api/deals/${deal.id}/win`).set(owner.auth);
    const answers = await Promise.all([...moves, win]);
    for (const a of answers)
      expect(a.status === 200 || (a.status === 409 && a.body.code === 'invalid_transition')).toBe(true);
    expect(answers.at(-1)!.status).toBe(200);
    expect((await history(deal.id)).history.filter((e) => e.type === 'won')).toHaveLength(1);
  });

  it('issues a draft whose customer a concurrent PUT changes: issued or refused as issued, never 404', async () => {
    const org = await invoicingOrg(stack);
    const [first, second] = [
      await customerOf(stack, org, { name: 'Premier SARL' }),
      await customerOf(stack, org, { name: 'Second SARL' }),
    ];
    for (let i = 0; i < 5; i++) {
      const made = await draft(stack, org, first.id);
      const [put, issue] = await Promise.all([
        stack.http
          .put(`/api/invoices/${made.id}`)
          .set(org.auth)
          .send({ customerId: second.id, lines: [line()] }),
        stack.http.post(`/api/invoices/${made.id}/issue`).set(org.auth),
      ]);
      expect(issue.status).toBe(200);
      // The PUT came first (the invoice is issued to the second customer) or second (refused: no longer a draft).
      if (put.status === 200) expect(issue.body.customerId).toBe(second.id);
      else
        expect({ status: put.status, code: put.body.code, customerId: issue.body.customerId }).toEqual({
          status: 409,
          code: 'invoice_not_draft',
          customerId: first.id,
        });
    }
  });
});
