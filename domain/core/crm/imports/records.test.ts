import { parseCustomerRecord, parseDealRecord } from './records';

const errorsOf = (result: ReturnType<typeof parseCustomerRecord> | ReturnType<typeof parseDealRecord>) =>
  'errors' in result ? result.errors : [];

describe('import records', () => {
  describe('customers', () => {
    it('normalises a valid record: defaults, lower-cased e-mails and tags, one primary first, no repeats', () => {
      const result = parseCustomerRecord({
        externalId: ' erp-1 ',
        name: ' Ada Lovelace ',
        roles: ['lead', 'lead'],
        tags: ['VIP', 'vip '],
        emails: [{ value: 'ada@example.com' }, { value: ' Ada@Work.EXAMPLE ', primary: true }],
        phones: [{ value: '+33 6 12 34 56 78' }],
        addresses: [{ line1: ' 1 rue de la Paix ', country: 'fr' }],
      });
      expect(result).toEqual({
        record: {
          externalId: 'erp-1',
          kind: 'person',
          name: 'Ada Lovelace',
          roles: ['lead'],
          tags: ['vip'],
          emails: [
            { type: 'work', value: 'ada@work.example', primary: true },
            { type: 'work', value: 'ada@example.com', primary: false },
          ],
          phones: [{ type: 'work', value: '+33 6 12 34 56 78', primary: true }],
          addresses: [
            {
              type: 'work',
              line1: '1 rue de la Paix',
              line2: null,
              postalCode: null,
              city: null,
              region: null,
              country: 'FR',
              primary: true,
            },
          ],
          custom: {},
        },
      });
    });

    it('names every bad field, with the externalId when there is one', () => {
      const result = parseCustomerRecord({
        externalId: 'erp-2',
        kind: 'robot',
        colour: 'red',
        emails: [{ value: 'not-an-address' }],
        phones: [{ value: 'call me' }],
        custom: [],
      });
      expect(result).toEqual({
        externalId: 'erp-2',
        errors: expect.arrayContaining([
          { field: 'colour', message: 'is not a field' },
          { field: 'name', message: 'is required' },
          { field: 'kind', message: 'must be one of person, organisation' },
          { field: 'emails[0].value', message: 'must be an e-mail address' },
          {
            field: 'phones[0].value',
            message: 'must be a phone number (digits, spaces, + ( ) . - /; 3-40 characters)',
          },
          { field: 'custom', message: 'must be an object of values by field key' },
        ]),
      });
    });

    it('refuses what is not an object, and lists past their size', () => {
      expect(parseCustomerRecord('erp-3')).toEqual({
        errors: [{ field: 'record', message: 'must be an object' }],
        externalId: null,
      });
      expect(parseCustomerRecord([])).toEqual({
        errors: [{ field: 'record', message: 'must be an object' }],
        externalId: null,
      });
      expect(
        errorsOf(
          parseCustomerRecord({ externalId: 'x', name: 'X', tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }),
        ),
      ).toEqual([{ field: 'tags', message: 'must be a list of at most 50 items' }]);
      expect(errorsOf(parseCustomerRecord({ externalId: 'x'.repeat(201), name: 'X' }))).toEqual([
        { field: 'externalId', message: 'must be a text of 1-200 characters' },
      ]);
    });
  });

  describe('deals', () => {
    const deal = { externalId: 'd-1', title: 'Renewal', customerExternalId: 'erp-1', amount: 120000, currency: 'EUR' };

    it('keeps a valid record, ids lower-cased, no close date by default', () => {
      const id = 'A1B2C3D4-0000-4000-8000-00000000000A';
      expect(parseDealRecord({ ...deal, customerExternalId: undefined, customerId: id, stageId: id })).toEqual({
        record: {
          externalId: 'd-1',
          title: 'Renewal',
          customerExternalId: undefined,
          customerId: id.toLowerCase(),
          stageId: id.toLowerCase(),
          amount: 120000,
          currency: 'EUR',
          expectedCloseDate: null,
        },
      });
      expect(parseDealRecord({ ...deal, expectedCloseDate: '2024-02-29' })).toMatchObject({
        record: { customerExternalId: 'erp-1', expectedCloseDate: '2024-02-29' },
      });
    });

    it('needs exactly one way to name the customer', () => {
      expect(errorsOf(parseDealRecord({ ...deal, customerExternalId: undefined }))).toEqual([
        { field: 'customerId', message: 'give either customerId or customerExternalId' },
      ]);
      expect(errorsOf(parseDealRecord({ ...deal, customerId: '0192f0e8-0000-7000-8000-000000000001' }))).toEqual([
        { field: 'customerId', message: 'give either customerId or customerExternalId' },
      ]);
      expect(errorsOf(parseDealRecord({ ...deal, customerExternalId: undefined, customerId: 'c-1' }))).toEqual([
        { field: 'customerId', message: 'must be a UUID' },
      ]);
    });

    it('takes amounts in whole cents, ISO currencies in capitals and dates that exist', () => {
      expect(errorsOf(parseDealRecord({ ...deal, amount: 0 }))).toEqual([]);
      expect(errorsOf(parseDealRecord({ ...deal, amount: 12.5 }))).toEqual([
        { field: 'amount', message: 'must be a whole number of cents, 0 or more' },
      ]);
      expect(errorsOf(parseDealRecord({ ...deal, amount: -1 }))).toEqual([
        { field: 'amount', message: 'must be a whole number of cents, 0 or more' },
      ]);
      expect(errorsOf(parseDealRecord({ ...deal, amount: 2 ** 53 }))).toEqual([
        { field: 'amount', message: 'must be a whole number of cents, 0 or more' },
      ]);
      expect(errorsOf(parseDealRecord({ ...deal, currency: 'eur' }))).toEqual([
        { field: 'currency', message: 'must be an ISO 4217 code in capitals (EUR)' },
      ]);
      expect(errorsOf(parseDealRecord({ ...deal, expectedCloseDate: '2024-04-31' }))).toEqual([
        { field: 'expectedCloseDate', message: 'must be a date YYYY-MM-DD that exists' },
      ]);
      expect(errorsOf(parseDealRecord({ ...deal, stageId: 'first' }))).toEqual([
        { field: 'stageId', message: 'must be a UUID' },
      ]);
    });
  });
});
