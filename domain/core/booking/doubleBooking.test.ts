import type { Em } from '../../../lib/db';
import { AppError } from '../../../lib/errors';
import { flushBooking, isSlotTaken } from './doubleBooking';

describe('booking: no double booking', () => {
  it('recognises the exclusion constraint refusal, bare or wrapped by the ORM', () => {
    expect(isSlotTaken({ code: '23P01' })).toBe(true);
    expect(isSlotTaken({ cause: { code: '23P01' } })).toBe(true);
    expect(isSlotTaken({ code: '23505' })).toBe(false);
    expect(isSlotTaken(null)).toBe(false);
  });

  it('answers 409 slot_taken and forgets the refused writes; other failures pass through', async () => {
    const cleared: string[] = [];
    const em = (failure: unknown) =>
      ({ flush: () => Promise.reject(failure), clear: () => cleared.push('clear') }) as unknown as Em;
    const taken = await flushBooking(em({ cause: { code: '23P01' } })).catch((err: unknown) => err);
    expect(taken).toBeInstanceOf(AppError);
    expect([(taken as AppError).status, (taken as AppError).code]).toEqual([409, 'slot_taken']);
    expect(cleared).toEqual(['clear']);
    const other = new Error('connection lost');
    await expect(flushBooking(em(other))).rejects.toBe(other);
    expect(cleared).toEqual(['clear']);
  });
});
