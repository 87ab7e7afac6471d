import { signInLimits, signInRefused, SIGNIN_FAILURE_WINDOW_SECONDS } from './admitPasswordAttempt';

describe('the sign-in throttle', () => {
  it('takes its limits from the configuration, durations in milliseconds', () => {
    expect(
      signInLimits({
        SIGNIN_FAILURES_PER_ADDRESS: 100,
        SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS: 10,
        SIGNIN_FAILURES_BEFORE_DELAY: 5,
        SIGNIN_DELAY_MAX_SECONDS: 60,
      }),
    ).toEqual({
      windowMs: SIGNIN_FAILURE_WINDOW_SECONDS * 1000,
      perAddress: 100,
      perAccountAddress: 10,
      beforeDelay: 5,
      maxDelayMs: 60_000,
    });
    expect(SIGNIN_FAILURE_WINDOW_SECONDS).toBe(900);
  });

  it('refuses with 429 rate_limited naming what is over its limit', () => {
    expect(signInRefused(1, 5000)).toMatchObject({
      status: 429,
      code: 'rate_limited',
      message: 'Too many failed sign-ins from this address; retry in 5 s',
    });
    expect(signInRefused(2, 5000).message).toBe(
      'Too many failed sign-ins for this account from this address; retry in 5 s',
    );
    expect(signInRefused(3, 5000).message).toBe('Too many failed sign-ins for this account; retry in 5 s');
  });

  it('rounds Retry-After up to whole seconds, one second when the wait is unknown', () => {
    expect(signInRefused(3, 1001).headers).toEqual({ 'Retry-After': '2' });
    expect(signInRefused(3, 1000).headers).toEqual({ 'Retry-After': '1' });
    expect(signInRefused(1, 899_999).headers).toEqual({ 'Retry-After': '900' });
    expect(signInRefused(2).headers).toEqual({ 'Retry-After': '1' });
  });
});
