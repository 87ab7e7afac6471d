import { prose } from '../../http/docs';

export const listCustomersDoc = prose`
  Filters combine (kind, role, tag, custom \`key:value\` repeated, q). q searches names, e-mails and phone digits with
  typo tolerance (pg_trgm). Sort by name (default), createdAt, updatedAt (prefix \`-\` for descending) or relevance
  (default with q). Keyset pagination: pass nextCursor back with the same filters and sort.
`;

export const createCustomerDoc = prose`
  A person or an organisation with roles, tags, typed e-mails, phones and postal addresses (one primary per list: the
  first marked, else the first) and custom field values (400 naming \`custom.<key>\` when a value does not fit its
  field). 409 \`external_id_taken\` when another customer has the externalId. E-mails are not deduplicated here
  (findOrCreate paths such as bookings and logged e-mails reuse the customer with that primary e-mail).
`;

export const editCustomerDoc = prose`
  Lists given (roles, tags, emails, phones, addresses) replace the current ones; custom values merge (null removes one).
  Edits of one customer at the same moment apply one after the other, each on the result of the other (none loses the
  other's custom values).
`;

export const deleteCustomerDoc = prose`
  Removes its activities, relations and score too. 409 \`customer_in_use\` while deals (or invoices, appointments) refer
  to it.
`;

export const relateCustomerAnotherDoc = prose`
  Stored once as "this customer <type> the other" and shown from both ends: employee_of/employer_of,
  subsidiary_of/parent_of, contact_of/has_contact, reports_to/manages, referred_by/referred; partner_of, family_of and
  other read the same both ways. 409 \`relation_exists\` for the same relation twice (a symmetric one stored from either
  end).
`;
