import { INTEGRATION_TOKEN } from './postIntegrationMessage';

describe('INTEGRATION_TOKEN', () => {
  it('is pci_ and 43 base64url characters (256 bits)', () => {
    expect(INTEGRATION_TOKEN.test(`pci_${'A'.repeat(21)}-_${'9'.repeat(20)}`)).toBe(true);
  });

  it.each([
    `pci_${'a'.repeat(42)}`,
    `pci_${'a'.repeat(44)}`,
    `pcx_${'a'.repeat(43)}`,
    `pci_${'a'.repeat(42)}=`,
    `pci_${'a'.repeat(42)}+`,
  ])('refuses %p', (token) => {
    expect(INTEGRATION_TOKEN.test(token)).toBe(false);
  });
});
