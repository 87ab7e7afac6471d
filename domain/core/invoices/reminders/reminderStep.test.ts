import { reminderStep } from './reminderStep';

const plan = [-3, 0, 7, 15];

describe('reminderStep', () => {
  it.each([
    ['2026-03-01', null],
    ['2026-03-06', null],
    ['2026-03-07', -3],
    ['2026-03-09', -3],
    ['2026-03-10', 0],
    ['2026-03-17', 7],
    ['2026-03-23', 7],
    ['2026-03-25', 15],
    ['2026-03-31', 15],
    ['2026-04-01', null],
  ])('due 2026-03-10, on %s: step %p', (today, step) => {
    expect(reminderStep(plan, '2026-03-10', today)).toBe(step);
  });

  it('has no step with an empty plan', () => {
    expect(reminderStep([], '2026-03-10', '2026-03-10')).toBeNull();
  });
});
