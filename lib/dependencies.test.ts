import { isDependencyDown } from './dependencies';

describe('isDependencyDown', () => {
  it.each([
    ['CLUSTERDOWN The cluster is down', true],
    ['CLUSTERDOWN Hash slot not served', true],
    ['TRYAGAIN Multiple keys request during rehashing of slot', true],
    ["READONLY You can't write against a read only replica.", true],
    ['LOADING Redis is loading the dataset in memory', true],
    ['Too many Cluster redirections. Last error: Error: Connection is closed.', true],
    ['Failed to refresh slots cache.', true],
    ['connect ECONNREFUSED 127.0.0.1:7000', true],
    ["CROSSSLOT Keys in request don't hash to the same slot", false],
    ['error loading the template', false],
    ['readonly property', false],
  ])('%s: %s', (message, down) => {
    expect(isDependencyDown(new Error(message))).toBe(down);
  });
});
