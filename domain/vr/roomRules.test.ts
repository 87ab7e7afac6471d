import { AppError } from '../../lib/errors';
import { capacityFor, DEFAULT_CAPACITY } from './roomRules';

describe('capacityFor', () => {
  it('gives a solo room exactly one place', () => {
    expect(capacityFor('solo', undefined)).toBe(1);
    expect(capacityFor('solo', 1)).toBe(1);
  });

  it('refuses another capacity for a solo room (400 on capacity)', () => {
    expect(() => capacityFor('solo', 2)).toThrow(AppError);
    try {
      capacityFor('solo', 8);
    } catch (err) {
      expect((err as AppError).status).toBe(400);
      expect((err as AppError).errors?.[0].field).toBe('capacity');
    }
  });

  it('keeps the capacity asked for other modes, or the default', () => {
    expect(capacityFor('multiplayer', 12)).toBe(12);
    expect(capacityFor('instructor_led', undefined)).toBe(DEFAULT_CAPACITY);
  });
});
