import { newId } from '../../entities/base';
import { releaseEndpointSlot, takeAttemptSlot } from '../../domain/webhooks/throttle';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';

/**
 * An endpoint's slots (WEBHOOK_ENDPOINT_CONCURRENCY) are leases in Redis: the ones a killed dyno held come back
 * once they lapse, even while other attempts keep asking for a slot (a shared counter whose expiry every taker
 * refreshed never lapsed then: a kill in the middle of deliveries took those slots for good).
 */
describe('webhook endpoint slots', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
  });
  afterAll(() => stack.close());

  it('holds at most the limit, gives a released slot back, and lets a dead holder’s lease lapse under polling', async () => {
    const endpoint = newId();
    // Attempt timeout 200 ms: a lease lapses 1.4 s after it was taken.
    const take = async () => {
      const taken = await takeAttemptSlot(stack.services, {
        tenantId: newId(),
        perSecond: 1_000_000,
        endpointId: endpoint,
        slots: 2,
        timeoutMs: 200,
      });
      return 'lease' in taken ? taken.lease : null;
    };
    const a = await take();
    const b = await take();
    expect(a).toEqual(expect.any(String));
    expect(b).toEqual(expect.any(String));
    expect(await take()).toBeNull();
    await releaseEndpointSlot(stack.services, endpoint, a!);
    const c = await take();
    expect(c).toEqual(expect.any(String));
    // b and c now belong to a dyno that died: never released. Attempts keep asking every 50 ms meanwhile.
    const started = Date.now();
    const next = await eventually(take, { timeoutMs: 5000, intervalMs: 50, what: 'a lapsed slot' });
    expect(next).toEqual(expect.any(String));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });
});
