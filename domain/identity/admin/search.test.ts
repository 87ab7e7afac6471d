import { containing } from './search';

describe('containing', () => {
  it('matches the text anywhere', () => {
    expect(containing('ada')).toBe('%ada%');
  });

  it('takes the ILIKE wildcards and the escape character of the text literally', () => {
    expect(containing('50%_off')).toBe('%50\\%\\_off%');
    expect(containing('a\\b')).toBe('%a\\\\b%');
    expect(containing('')).toBe('%%');
  });
});
