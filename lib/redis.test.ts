import { clusterNodes, isCluster, keyspace } from './redis';

/** CRC16 slot of a key as Redis Cluster computes it (the hash tag, when there is one, is what is hashed). */
function slotOf(key: string): number {
  const open = key.indexOf('{');
  const close = open >= 0 ? key.indexOf('}', open + 1) : -1;
  const hashed = open >= 0 && close > open + 1 ? key.slice(open + 1, close) : key;
  let crc = 0;
  for (const byte of Buffer.from(hashed)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}

describe('keyspace', () => {
  it.each([
    [['rv', 'warm'], 'ps:rv:warm', '{ps:rv}:warm'],
    [['rv', 'jti', 'abc'], 'ps:rv:jti:abc', '{ps:rv}:jti:abc'],
    [['vr', 'live-rooms'], 'ps:vr:live-rooms', '{ps:vr}:live-rooms'],
    [['mail-cap', 'a@b.c'], 'ps:mail-cap:a@b.c', '{ps:mail-cap}:a@b.c'],
    [['kb'], 'ps:kb', '{ps:kb}'],
  ])('names %j %s on one Redis and %s on a cluster', (parts, single, cluster) => {
    expect(keyspace('ps')(...parts)).toBe(single);
    expect(keyspace('ps', true)(...parts)).toBe(cluster);
  });

  it('puts the keys one script or MULTI touches together (one family) in one slot', () => {
    const key = keyspace('ps', true);
    const families = [
      [key('rv', 'warm'), key('rv', 'jti', 'x'), key('rv', 'sid', 'y'), key('rv', 'nbf', 'z')],
      [key('signin', 'addr', '1.2.3.4'), key('signin', 'pair', 'a', '1.2.3.4'), key('signin', 'acct', 'a')],
      [key('vr', 'room', 'r1'), key('vr', 'presence', 'r1'), key('vr', 'live-rooms'), key('vr', 'participants', 's')],
      [key('entitlements', 't1'), key('entitlements', 'gen', 't1'), key('entitlements', 'gen')],
    ];
    for (const keys of families) expect(new Set(keys.map(slotOf)).size).toBe(1);
    // ...and different families spread over the slots.
    expect(new Set(families.map((keys) => slotOf(keys[0]))).size).toBe(families.length);
  });
});

describe('clusterNodes', () => {
  it.each([
    ['', null],
    [' , ', null],
    ['10.0.0.1:7000', [{ host: '10.0.0.1', port: 7000, tls: false }]],
    [
      'redis-a:7000, redis-b:7001',
      [
        { host: 'redis-a', port: 7000, tls: false },
        { host: 'redis-b', port: 7001, tls: false },
      ],
    ],
    [
      'rediss://app:s%40cret@cache.example:6380',
      [{ host: 'cache.example', port: 6380, tls: true, username: 'app', password: 's@cret' }],
    ],
    ['[::1]:7000', [{ host: '::1', port: 7000, tls: false }]],
    ['node-1', [{ host: 'node-1', port: 6379, tls: false }]],
  ])('reads %j', (value, expected) => {
    const nodes = clusterNodes({ REDIS_CLUSTER_NODES: value });
    expect(nodes?.map((n) => Object.fromEntries(Object.entries(n).filter(([, v]) => v !== undefined))) ?? null).toEqual(
      expected,
    );
    expect(isCluster({ REDIS_CLUSTER_NODES: value })).toBe(expected !== null);
  });
});
