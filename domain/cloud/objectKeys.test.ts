import { fileKeyOf, objectKeyFor, uploadOfKey } from './objectKeys';

const T = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const U = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';

describe('object keys', () => {
  it('names an upload by its organisation and id, and reads the key back', () => {
    expect(objectKeyFor(T, U)).toBe(`${T}/files/${U}`);
    expect(uploadOfKey(objectKeyFor(T, U))).toEqual({ tenantId: T, id: U, key: `${T}/files/${U}` });
  });

  it('reads no upload from any other key', () => {
    for (const key of [
      `${T}/stored/${U}`,
      `${T}/files/${U}/x`,
      `${T}/files/x`,
      `x/files/${U}`,
      `${T}/files`,
      '',
      `${T}/files/${U.toUpperCase()}x`,
    ]) {
      expect(uploadOfKey(key)).toBeNull();
    }
  });

  it('stores a confirmed file at its upload key only where uploads are final', () => {
    expect(fileKeyOf(true, T, { id: U, objectKey: objectKeyFor(T, U) })).toBe(objectKeyFor(T, U));
    expect(fileKeyOf(false, T, { id: U, objectKey: objectKeyFor(T, U) })).toBe(`${T}/stored/${U}`);
  });
});
