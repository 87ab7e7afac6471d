import { prose } from '../../http/docs';

export const createCustomerBodyCustomDoc = prose`
  Values of custom fields by key, checked against their definition (400 names \`custom.<key>\`); on edit, null removes a
  value
`;

export const listCustomersQueryQDoc = prose`
  Search in names, e-mails and phone numbers; a typo still matches (trigram word similarity ≥ 0.5); phone-like queries
  match digits
`;

export const listCustomersQueryCustomDoc = prose`
  Custom field filter \`key:value\`, repeatable (all must match); values are read by the field type (number, true/false,
  YYYY-MM-DD, option)
`;

export const relationBodyTypeDoc = prose`
  Read from this customer to the other: employee_of, subsidiary_of, contact_of, reports_to, partner_of, family_of,
  referred_by, other
`;

export const exportQueryFormatDoc = prose`
  jsonl (default): one JSON object per line, each with \`recordType\`; csv: one resource with a header row
`;

export const exportQueryResourceDoc = prose`
  customers, relations or deals; jsonl without it exports all three (customers, then relations, then deals); csv
  defaults to customers
`;
