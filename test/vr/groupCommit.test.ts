import { GroupCommit } from '../../workers/vr/groupCommit';

describe('telemetry group commit', () => {
  const settle = <T>(p: Promise<T>) => p.then(() => 'ok', (e: Error) => e.message);

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
