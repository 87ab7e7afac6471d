import type { TelemetryEventPayload, TelemetryJob } from '../../queues/vr';
import { fitsColumns, namedOthers, splitAttributable, tally, uniqueStorableBatches } from './telemetryRules';

const T = '0190a000-0000-7000-8000-000000000001';
const S = '0190a000-0000-7000-8000-0000000000aa';
const SENDER = '0190a000-0000-7000-8000-00000000000b';
const OTHER = '0190a000-0000-7000-8000-00000000000c';

const event = (e: Partial<TelemetryEventPayload> = {}): TelemetryEventPayload => ({
  type: 'note',
  label: '',
  detail: '',
  ...e,
});
const job = (j: Partial<TelemetryJob> = {}): TelemetryJob => ({
  tenantId: T,
  sessionId: S,
  batchKey: 'k1',
  senderId: SENDER,
  receivedAt: '2026-01-01T10:00:00.000Z',
  events: [event()],
  ...j,
});

describe('fitsColumns', () => {
  it('counts code points, as varchar(n) does', () => {
    expect(fitsColumns(event({ type: 'x'.repeat(64), label: 'y'.repeat(200) }))).toBe(true);
    expect(fitsColumns(event({ type: 'x'.repeat(65) }))).toBe(false);
    expect(fitsColumns(event({ label: 'y'.repeat(201) }))).toBe(false);
    // 200 astral characters are 400 code units but 200 code points: they fit.
    expect(fitsColumns(event({ label: '😀'.repeat(200) }))).toBe(true);
    expect(fitsColumns(event({ label: '😀'.repeat(201) }))).toBe(false);
  });
});

describe('uniqueStorableBatches', () => {
  it('keeps one job per tenant, session and key, with the session id in lower case', () => {
    const { batches, trimmed } = uniqueStorableBatches([
      job({ sessionId: S.toUpperCase() }),
      job({ events: [event(), event()] }),
      job({ batchKey: 'k2' }),
    ]);
    expect(batches.map((b) => [b.sessionId, b.batchKey, b.events.length])).toEqual([
      [S, 'k1', 2],
      [S, 'k2', 1],
    ]);
    expect(trimmed).toEqual([]);
  });

  it('drops only the events the columns cannot hold, and reports them', () => {
    const { batches, trimmed } = uniqueStorableBatches([
      job({ events: [event({ type: 'x'.repeat(65) }), event({ label: 'ok' })] }),
    ]);
    expect(batches[0].events).toEqual([event({ label: 'ok' })]);
    expect(trimmed).toEqual([{ tenantId: T, sessionId: S, batchKey: 'k1', events: 1 }]);
  });

  it('keeps the same object when nothing changes', () => {
    const j = job();
    expect(uniqueStorableBatches([j]).batches[0]).toBe(j);
  });
});

describe('namedOthers', () => {
  it('lists users named other than the sender, once, in lower case', () => {
    const b = job({
      events: [
        event(),
        event({ userId: SENDER.toUpperCase() }),
        event({ userId: OTHER.toUpperCase() }),
        event({ userId: OTHER }),
      ],
    });
    expect(namedOthers([b])).toEqual([{ t: T, s: S, u: OTHER }]);
  });

  it("is empty when every event is the sender's", () => {
    expect(namedOthers([job({ events: [event(), event({ userId: SENDER })] })])).toEqual([]);
  });
});

describe('splitAttributable', () => {
  it('applies everything when nobody is refused', () => {
    const b = job();
    expect(splitAttributable([b], new Set())).toEqual({ applied: [{ job: b, events: b.events }], dropped: [] });
  });

  it('drops the events naming a refused user, whatever the case, and reports them', () => {
    const kept = [event({ label: 'a' }), event({ userId: SENDER, label: 'b' })];
    const b = job({ events: [...kept, event({ userId: OTHER.toUpperCase() }), event({ userId: OTHER })] });
    const clean = job({ batchKey: 'k2' });
    const { applied, dropped } = splitAttributable([b, clean], new Set([`${T}/${S}/${OTHER}`]));
    expect(applied).toEqual([
      { job: b, events: kept },
      { job: clean, events: clean.events },
    ]);
    expect(dropped).toEqual([
      { tenantId: T, sessionId: S, batchKey: 'k1', senderId: SENDER, events: 2, userIds: [OTHER] },
    ]);
  });

  it("never drops the sender's own events", () => {
    const b = job({ events: [event({ userId: SENDER })] });
    expect(splitAttributable([b], new Set([`${T}/${S}/${SENDER}`])).dropped).toEqual([]);
  });
});

describe('tally', () => {
  let n = 0;
  const id = () => `id-${++n}`;
  beforeEach(() => (n = 0));

  it('adds up sessions, distinct steps and participants', () => {
    const first = job({
      receivedAt: '2026-01-01T10:00:00.000Z',
      events: [
        event({ type: 'step_passed', label: 's1' }),
        event({ type: 'step_passed', label: 's1' }),
        event({ type: 'step_passed', label: 's2', userId: OTHER.toUpperCase() }),
      ],
    });
    const later = job({
      batchKey: 'k2',
      receivedAt: '2026-01-01T10:00:05.000Z',
      events: [event({ type: 'simulation_completed' })],
    });
    const sums = tally(
      [
        { job: first, events: first.events },
        { job: later, events: later.events },
      ],
      id,
    );
    expect(sums.events).toBe(4);
    expect(sums.sessions).toEqual([{ s: S, n: 4, r: '2026-01-01T10:00:05.000Z' }]);
    expect(sums.steps).toEqual([
      { t: T, s: S, u: SENDER, l: 's1', r: '2026-01-01T10:00:00.000Z' },
      { t: T, s: S, u: OTHER, l: 's2', r: '2026-01-01T10:00:00.000Z' },
    ]);
    expect(sums.participants).toEqual([
      { i: 'id-1', t: T, s: S, u: SENDER, n: 3, l: 's1', c: true },
      { i: 'id-2', t: T, s: S, u: OTHER, n: 1, l: 's2', c: false },
    ]);
  });

  it('skips batches left without events', () => {
    const b = job();
    expect(tally([{ job: b, events: [] }], id)).toEqual({ events: 0, sessions: [], steps: [], participants: [] });
  });

  it('keeps the latest step passed as the last step', () => {
    const b = job({
      events: [
        event({ type: 'step_passed', label: 's2' }),
        event({ type: 'note', label: 'x' }),
        event({ type: 'step_passed', label: 's1' }),
      ],
    });
    expect(tally([{ job: b, events: b.events }], id).participants[0].l).toBe('s1');
  });
});
