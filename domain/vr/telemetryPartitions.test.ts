import { partitionName, planPartitions, type TelemetryPartition } from './telemetryPartitions';

const part = (name: string, until: string): TelemetryPartition => ({ name, until: new Date(until) });
const existing = [
  part('vr_telemetry_events_legacy', '2026-12-01T00:00:00Z'),
  part('vr_telemetry_events_y2026m12', '2027-01-01T00:00:00Z'),
  part('vr_telemetry_events_y2027m01', '2027-02-01T00:00:00Z'),
];

describe('planPartitions', () => {
  it.each([
    // now, ahead, retention, create, drop
    ['2026-12-15T10:00:00Z', 2, 12, ['2027-02-01'], []],
    ['2026-12-31T23:59:59Z', 1, 12, [], []],
    ['2027-01-01T00:00:00Z', 2, 12, ['2027-02-01', '2027-03-01'], []],
    // The month the legacy bound ends is retention months back: every row it holds is older.
    ['2027-12-01T00:00:00Z', 0, 12, ['2027-12-01'], ['vr_telemetry_events_legacy']],
    ['2027-11-30T23:00:00Z', 0, 12, ['2027-11-01'], []],
    [
      '2028-02-10T00:00:00Z',
      0,
      12,
      ['2028-02-01'],
      ['vr_telemetry_events_legacy', 'vr_telemetry_events_y2026m12', 'vr_telemetry_events_y2027m01'],
    ],
    // 0 keeps everything.
    ['2035-01-01T00:00:00Z', 0, 0, ['2035-01-01'], []],
  ])('at %s (ahead %d, retention %d months)', (now, ahead, retentionMonths, create, drop) => {
    expect(planPartitions(new Date(now), existing, { ahead, retentionMonths })).toEqual({ create, drop });
  });

  it('creates this month and the ones ahead on a table without partitions after the first', () => {
    expect(planPartitions(new Date('2026-11-20T00:00:00Z'), [], { ahead: 1, retentionMonths: 0 }).create).toEqual([
      '2026-11-01',
      '2026-12-01',
    ]);
  });

  it('names a month as the database function does', () => {
    expect(partitionName('2027-03-01')).toBe('vr_telemetry_events_y2027m03');
  });
});
