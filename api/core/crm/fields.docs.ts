import { prose } from '../../http/docs';

export const defineReplaceCustomFieldDoc = prose`
  Types: text (≤ 2,000 characters), number, date (YYYY-MM-DD), boolean, select (one of \`options\`). 201 when created,
  200 when replaced. A field created with the key of a deleted one starts without values (those of the deleted field are
  removed first). Changing the type of a field customers have values for is refused (409 \`field_in_use\`); at most 100
  fields (409 \`custom_field_limit_reached\`).
`;

export const deleteCustomFieldDoc = prose`
  Its values disappear from answers at once and are purged from the customers in the background. Deleting again while
  values of the key are still stored answers 204 and requests the purge again; otherwise 404.
`;
