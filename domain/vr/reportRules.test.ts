import { overviewFigures, progressOf, ratio } from './reportRules';
import type { OverviewRow } from './store/reports';

describe('progressOf', () => {
  it('is the share of the steps passed, at most 1', () => {
    expect(progressOf(0, 4)).toBe(0);
    expect(progressOf(3, 4)).toBe(0.75);
    expect(progressOf(6, 4)).toBe(1);
  });

  it('counts a simulation without steps as one step', () => {
    expect(progressOf(0, 0)).toBe(0);
    expect(progressOf(1, 0)).toBe(1);
  });
});

describe('ratio', () => {
  it('is null without a whole', () => {
    expect(ratio(0, 0)).toBeNull();
    expect(ratio(1, 4)).toBe(0.25);
  });
});

describe('overviewFigures', () => {
  const row: OverviewRow = {
    simulation: 'fire-101',
    room_id: null,
    room_name: null,
    by_simulation: 0,
    by_room: 1,
    runs: 3,
    running: 1,
    participants: '4',
    completed: '1',
    progress: 2,
    avg_duration: '90.6',
    events: '120',
  };

  it('reads the sums PostgreSQL answers as text', () => {
    expect(overviewFigures(row)).toEqual({
      runs: 3,
      runningRuns: 1,
      participants: 4,
      completedParticipants: 1,
      completionRate: 0.25,
      averageProgress: 0.5,
      averageDurationSeconds: 91,
      events: 120,
    });
  });

  it('has no rates without participants, no duration when no run ended', () => {
    expect(
      overviewFigures({ ...row, participants: null, completed: null, progress: null, avg_duration: null }),
    ).toMatchObject({
      participants: 0,
      completionRate: null,
      averageProgress: null,
      averageDurationSeconds: null,
    });
  });

  it('is all zero for no row', () => {
    expect(overviewFigures(null)).toEqual({
      runs: 0,
      runningRuns: 0,
      participants: 0,
      completedParticipants: 0,
      completionRate: null,
      averageProgress: null,
      averageDurationSeconds: null,
      events: 0,
    });
  });
});
