import type { ContactPoint, CustomerKind, CustomerRole, PostalAddress } from '../../../entities/core/customer';

/** What a customer is made of when created or edited (the DTOs validate shapes; the domain checks meaning). */
export interface CustomerInput {
  kind: CustomerKind;
  name: string;
  roles?: CustomerRole[];
  tags?: string[];
  emails?: { type?: ContactPoint['type']; value: string; primary?: boolean }[];
  phones?: { type?: ContactPoint['type']; value: string; primary?: boolean }[];
  addresses?: (Partial<PostalAddress> & { line1: string })[];
  /** Custom field values by key; on edit a key set to null is removed. */
  custom?: Record<string, unknown>;
  ownerId?: string | null;
  externalId?: string | null;
}

export const normaliseTags = (tags: string[]) => [...new Set(tags.map((t) => t.trim().toLowerCase()).filter(Boolean))];
export const normaliseRoles = <T extends string>(roles: T[]) => [...new Set(roles)];
