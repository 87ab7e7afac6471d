import type { Response } from 'supertest';

/** Asserts a SCIM error: status, media type, the error schema, status as a string, scimType. */
export function expectScimError(res: Response, status: number, scimType?: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
  expect(res.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: String(status) });
  if (scimType) expect(res.body.scimType).toBe(scimType);
}
