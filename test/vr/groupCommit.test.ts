import { GroupCommit } from '../../workers/vr/groupCommit';

describe('telemetry group commit', () => {
  const settle = <T>(p: Promise<T>) =>
    p.then(
      () => 'ok',
      (e: Error) => e.message,
    );

  it('commits at once when idle, then groups what arrives meanwhile', async () => {
    const groups: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const committer = new GroupCommit<number>(
      async (items) => {
        groups.push(items);
        if (groups.length === 1) await gate;
      },
      { maxInFlight: 1, maxWeight: 100, weight: () => 1 },
    );
    const first = committer.submit(1);
    const rest = [2, 3, 4].map((n) => committer.submit(n));
    release();
    await Promise.all([first, ...rest]);
    expect(groups).toEqual([[1], [2, 3, 4]]);
  });

  it('lets an item wait lingerMs for company, unless its group is already full', async () => {
    const groups: number[][] = [];
    const committedAt: number[] = [];
    const committer = new GroupCommit<number>(
      async (items) => {
        committedAt.push(Date.now());
        groups.push(items);
      },
      { maxInFlight: 2, maxWeight: 3, weight: () => 1, lingerMs: 1000 },
    );
    const submittedAt = Date.now();
    const lingering = [1, 2].map((n) => committer.submit(n));
    await Promise.all(lingering);
    // One group, committed once lingerMs had passed (timers may fire a millisecond early).
    expect(groups).toEqual([[1, 2]]);
    expect(committedAt[0] - submittedAt).toBeGreaterThanOrEqual(990);
    // A full group does not wait (far less than lingerMs, with room for a loaded machine's jitter).
    const started = Date.now();
    await Promise.all([3, 4, 5].map((n) => committer.submit(n)));
    expect(groups).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('bounds a group by weight', async () => {
    const groups: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const committer = new GroupCommit<number>(
      async (items) => {
        groups.push(items);
        if (groups.length === 1) await gate;
      },
      { maxInFlight: 1, maxWeight: 100, weight: (n) => n },
    );
    const all = [1, 60, 50, 30, 40].map((n) => committer.submit(n));
    release();
    await Promise.all(all);
    expect(groups).toEqual([[1], [60, 50], [30, 40]]);
  });

  it('fails only the bad item of a failed group', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let calls = 0;
    const committer = new GroupCommit<number>(
      async (items) => {
        if (calls++ === 0) await gate;
        if (items.includes(13)) throw new Error('bad item');
      },
      { maxInFlight: 1, maxWeight: 100, weight: () => 1 },
    );
    const first = committer.submit(1);
    const others = [12, 13, 14].map((n) => settle(committer.submit(n)));
    release();
    await first;
    expect(await Promise.all(others)).toEqual(['ok', 'bad item', 'ok']);
  });
});
