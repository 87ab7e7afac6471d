import type { Account } from './factories';
import type { TestStack } from './stack';

/** Open every day 09:00-18:00. */
export const ALL_WEEK = Object.fromEntries(['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, ['09:00-18:00']]));

/**
 * A published storefront of the owner's business with one free 60-minute service and the owner as its one staff
 * member (open all week), the staff linked to the owner's account so their own calendars count as busy time.
 */
export async function publishStorefront(
  stack: TestStack,
  owner: Account,
  prefix: string,
): Promise<{ slug: string; serviceId: string; staffId: string }> {
  const business = (await stack.http.get('/api/businesses').set(owner.auth)).body as { id: string };
  const slug = `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  await stack.http
    .patch(`/api/businesses/${business.id}`)
    .set(owner.auth)
    .send({ publicSlug: slug, publicProfile: { published: true } })
    .expect(200);
  const service = await stack.http
    .post('/api/rdv/services')
    .set(owner.auth)
    .send({ name: 'Visite', durationMinutes: 60, priceCents: 0 })
    .expect(201);
  const staff = await stack.http
    .post('/api/rdv/staff')
    .set(owner.auth)
    .send({ displayName: 'Owner', weeklyHours: ALL_WEEK })
    .expect(201);
  await stack.http
    .post(`/api/rdv/staff/${staff.body.id}/link`)
    .set(owner.auth)
    .send({ userId: owner.user.id })
    .expect(200);
  return { slug, serviceId: service.body.id as string, staffId: staff.body.id as string };
}
