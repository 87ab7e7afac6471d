import {
  applyCustomValues,
  coerceCustomValue,
  CUSTOM_KEY,
  MAX_TEXT,
  parseCustomFilters,
  visibleCustomValues,
  type FieldDefinitions,
} from './customValues';

const defs: FieldDefinitions = new Map([
  ['industry', { type: 'text', options: [] }],
  ['seats', { type: 'number', options: [] }],
  ['vip', { type: 'boolean', options: [] }],
  ['renewal', { type: 'date', options: [] }],
  ['tier', { type: 'select', options: ['gold', 'silver'] }],
]);

describe('custom field values', () => {
  it('takes keys of lowercase letters, digits and _ starting with a letter, up to 64 characters', () => {
    expect(CUSTOM_KEY.test('industry_2')).toBe(true);
    expect(CUSTOM_KEY.test('a'.repeat(64))).toBe(true);
    expect(CUSTOM_KEY.test('a'.repeat(65))).toBe(false);
    expect(CUSTOM_KEY.test('2fast')).toBe(false);
    expect(CUSTOM_KEY.test('Industry')).toBe(false);
    expect(CUSTOM_KEY.test('')).toBe(false);
  });

  it('stores a value only in the form of its field type', () => {
    expect(coerceCustomValue('text', [], 'Retail')).toEqual({ value: 'Retail' });
    expect(coerceCustomValue('text', [], 'x'.repeat(MAX_TEXT))).toEqual({ value: 'x'.repeat(MAX_TEXT) });
    expect(coerceCustomValue('text', [], 'x'.repeat(MAX_TEXT + 1))).toEqual({
      error: `must be a text of at most ${MAX_TEXT} characters`,
    });
    expect(coerceCustomValue('text', [], 12)).toHaveProperty('error');
    expect(coerceCustomValue('number', [], 0)).toEqual({ value: 0 });
    expect(coerceCustomValue('number', [], Infinity)).toEqual({ error: 'must be a number' });
    expect(coerceCustomValue('number', [], NaN)).toEqual({ error: 'must be a number' });
    expect(coerceCustomValue('number', [], '3')).toEqual({ error: 'must be a number' });
    expect(coerceCustomValue('boolean', [], false)).toEqual({ value: false });
    expect(coerceCustomValue('boolean', [], 'true')).toEqual({ error: 'must be true or false' });
    expect(coerceCustomValue('date', [], '2024-02-29')).toEqual({ value: '2024-02-29' });
    expect(coerceCustomValue('date', [], '2024-04-31')).toEqual({ error: 'must be a date YYYY-MM-DD' });
    expect(coerceCustomValue('select', ['gold', 'silver'], 'gold')).toEqual({ value: 'gold' });
    expect(coerceCustomValue('select', ['gold', 'silver'], 'Gold')).toEqual({ error: 'must be one of: gold, silver' });
  });

  it('applies changes: null removes a value, unknown keys and bad values are named errors, stale stored keys drop', () => {
    const current = { industry: 'Retail', seats: 3, gone: 'left by a deleted field' };
    const { values, errors } = applyCustomValues(defs, current, {
      seats: null,
      vip: true,
      tier: 'bronze',
      colour: 'red',
    });
    expect(values).toEqual({ industry: 'Retail', vip: true });
    expect(errors).toEqual([
      { field: 'custom.tier', message: 'must be one of: gold, silver' },
      {
        field: 'custom.colour',
        message: 'is not a custom field of this organisation (define it with PUT /api/customers/fields/{key})',
      },
    ]);
    expect(applyCustomValues(defs, {}, { seats: 'many' }, 'records[3].custom').errors).toEqual([
      { field: 'records[3].custom.seats', message: 'must be a number' },
    ]);
  });

  it('shows only the values of defined fields', () => {
    expect(visibleCustomValues(defs, { tier: 'gold', gone: 1 })).toEqual({ tier: 'gold' });
    expect(visibleCustomValues(new Map(), { tier: 'gold' })).toEqual({});
  });

  it('reads key:value filters by the field type', () => {
    expect(
      parseCustomFilters(defs, ['seats:12', 'vip:false', 'renewal:2026-01-31', 'tier:gold', 'industry:a:b']),
    ).toEqual({ seats: 12, vip: false, renewal: '2026-01-31', tier: 'gold', industry: 'a:b' });
    expect(parseCustomFilters(defs, [])).toEqual({});
  });

  it('refuses filters on unknown fields and values that do not fit', () => {
    const fails = (filter: string) => {
      try {
        parseCustomFilters(defs, [filter]);
      } catch (err) {
        return (err as { errors?: { message: string }[] }).errors?.[0]?.message;
      }
      return 'accepted';
    };
    expect(fails('colour:red')).toBe('colour is not a custom field of this organisation');
    expect(fails('seats:')).toBe('seats must be a number');
    expect(fails('seats: ')).toBe('seats must be a number');
    expect(fails('vip:yes')).toBe('vip must be true or false');
    expect(fails('renewal:2026-02-30')).toBe('renewal must be a date YYYY-MM-DD');
    // A key without a value: an empty text, which a select does not offer.
    expect(fails('tier')).toBe('tier must be one of: gold, silver');
  });
});
