import { organizationSlug } from './createOrganization';
import { normalizeEmail } from './createUser';

describe('organizationSlug', () => {
  it('is the slug of the name with a 6-character random suffix', () => {
    expect(organizationSlug('Café Ünïcode & Co.')).toMatch(/^cafe-unicode-co-[0-9a-z]{6}$/);
  });

  it('falls back to "org" for a name without letters or digits', () => {
    expect(organizationSlug('¡¿!')).toMatch(/^org-[0-9a-z]{6}$/);
  });

  it('keeps at most 60 characters of the name, never ending in a hyphen before the suffix', () => {
    const slug = organizationSlug(`${'a'.repeat(59)} b`);
    expect(slug).toMatch(new RegExp(`^${'a'.repeat(59)}-[0-9a-z]{6}$`));
  });

  it('differs between two organisations of one name', () => {
    expect(organizationSlug('Acme')).not.toBe(organizationSlug('Acme'));
  });
});

describe('normalizeEmail', () => {
  it('trims and lower-cases', () => {
    expect(normalizeEmail('  Ada.Lovelace@Example.COM ')).toBe('ada.lovelace@example.com');
  });
});
