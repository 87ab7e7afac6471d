import { isRefusedAddress, urlProblem, type AddressPolicy } from './addressPolicy';

const production: AddressPolicy = { allowHttp: false, allowedHosts: [] };

describe('isRefusedAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['8.8.8.8', false],
    ['93.184.216.34', false],
    ['::1', true],
    ['::', true],
    ['fe80::1', true],
    ['fd00::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:8.8.8.8', false],
    ['2606:4700::1111', false],
    ['not-an-ip', true],
  ])('%s refused: %s', (address, expected) => expect(isRefusedAddress(address)).toBe(expected));
});

describe('urlProblem', () => {
  it.each([
    ['https://hooks.example.com/in', production, null],
    ['http://hooks.example.com/in', production, 'only https URLs are accepted'],
    ['http://hooks.example.com/in', { allowHttp: true, allowedHosts: [] }, null],
    ['ftp://hooks.example.com/in', production, 'only https URLs are accepted'],
    ['https://user:pw@hooks.example.com/', production, 'credentials in the URL are not accepted'],
    ['https://127.0.0.1/in', production, 'private, loopback and link-local addresses are refused'],
    ['https://[::1]/in', production, 'private, loopback and link-local addresses are refused'],
    ['https://169.254.169.254/latest', production, 'private, loopback and link-local addresses are refused'],
    ['https://localhost/in', production, 'private, loopback and link-local addresses are refused'],
    ['https://db.internal/in', production, 'private, loopback and link-local addresses are refused'],
    ['https://intranet/in', production, 'the host must be a fully qualified domain name'],
    ['https://8.8.8.8/in', production, null],
    ['http://127.0.0.1:4000/in', { allowHttp: false, allowedHosts: ['127.0.0.1'] }, null],
    ['http://127.0.0.1:4000/in', { allowHttp: false, allowedHosts: ['127.0.0.1:4000'] }, null],
    [
      'http://127.0.0.1:4001/in',
      { allowHttp: false, allowedHosts: ['127.0.0.1:4000'] },
      'only https URLs are accepted',
    ],
    ['not a url', production, 'not an absolute URL'],
  ])('%s', (url, policy, expected) => expect(urlProblem(url, policy)).toBe(expected));
});
