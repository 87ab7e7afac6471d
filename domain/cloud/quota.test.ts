import { availableBytes, quotaExceeded, quotaReport } from './quota';

describe('quota arithmetic', () => {
  it('leaves what neither stored files nor uploads in progress take, never below zero', () => {
    expect(availableBytes(1000, 300, 200)).toBe(500);
    expect(availableBytes(1000, 1000, 0)).toBe(0);
    // A quota lowered below what is stored (a downgrade): nothing is available, not a negative amount.
    expect(availableBytes(500, 800, 100)).toBe(0);
    expect(availableBytes(0, 0, 0)).toBe(0);
  });

  it('says what an upload needs and what remains when it does not fit', () => {
    const err = quotaExceeded(600, 1000, 300, 200);
    expect(err).toMatchObject({ status: 409, code: 'quota_exceeded' });
    expect(err.message).toBe(
      "This upload needs 600 bytes; 500 of the organisation's 1000 remain (used 300, reserved by uploads in progress 200)",
    );
    expect(quotaExceeded(1, 0, 0, 0).message).toContain('0 of the organisation');
  });

  it('reports over quota only when stored bytes pass the quota, and leaves empty categories out', () => {
    expect(
      quotaReport(1000, { usedBytes: 400, reservedBytes: 100, byType: { image: 400, video: 0, pdf: -3 } }, 50),
    ).toEqual({
      quotaBytes: 1000,
      usedBytes: 400,
      reservedBytes: 100,
      availableBytes: 500,
      trashBytes: 50,
      overQuota: false,
      byType: { image: 400 },
    });
    expect(quotaReport(1000, { usedBytes: 1000, reservedBytes: 0, byType: {} }, 0).overQuota).toBe(false);
    expect(quotaReport(1000, { usedBytes: 1001, reservedBytes: 0, byType: {} }, 0)).toMatchObject({
      overQuota: true,
      availableBytes: 0,
    });
  });
});
