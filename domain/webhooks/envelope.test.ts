import { envelopeOf } from './envelope';

describe('envelopeOf', () => {
  const event = {
    id: '0193a1b2-0000-7000-8000-000000000001',
    type: 'customer.created',
    resource: 'customer:c1',
    payload: { id: 'c1', name: 'Ada', kind: 'person', primaryEmail: null },
    createdAt: new Date('2026-12-01T10:00:00.000Z'),
  };

  it.each([
    [10_000, { id: 'c1', name: 'Ada', kind: 'person', primaryEmail: null }],
    [100, { truncated: true, resource: 'customer:c1' }],
  ])('under a limit of %s bytes sends %j', (max, data) => {
    expect(JSON.parse(envelopeOf(event, max))).toEqual({
      id: event.id,
      type: 'customer.created',
      version: 1,
      timestamp: '2026-12-01T10:00:00.000Z',
      data,
    });
  });
});
