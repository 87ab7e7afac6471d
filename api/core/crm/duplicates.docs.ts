import { prose } from '../../http/docs';

export const duplicatesOfDoc = prose`
  Live customers that may be the same party: a shared e-mail (lower-cased), phone (E.164; national numbers read as
  French), SIREN (from a SIREN, SIRET or French VAT number in the custom values \`siren\`, \`siret\`, \`vat\`,
  \`vat_number\`, \`vatNumber\`, \`tva\`, or mapped by a received supplier invoice) or other VAT number, and between
  organisations a similar name (pg_trgm similarity of the names without accents and legal forms, at least 0.6). Each
  with its reasons and a score (0-100), most likely first. 404 \`customer_merged\` for a merged customer.
`;

export const duplicatePairsDoc = prose`
  Every candidate pair of the organisation's live customers, by the same reasons and score as
  GET /api/customers/{id}/duplicates, most likely first (at most 5,000 pairs are scored per request). Paged by
  nextCursor.
`;

export const mergeDoc = prose`
  Merges the customers of \`from\` into this one in one transaction: their activities, deals, relations (a relation
  between merged records disappears, one the survivor has already is dropped), draft invoices, appointments and
  supplier identifiers move to it; roles, tags, e-mails, phones and addresses are combined; \`fields\` chooses the
  source of name, kind, ownerId, externalId and \`custom.<key>\` values (by default the survivor's, else the first
  source's that has one). The merged records are soft-deleted pointing at the survivor: their ids answer 404
  \`customer_merged\` naming it (problem \`errors[0]\`: field \`mergedInto\`, and a \`Link\` header); issued invoices
  keep referring to them. The merge is audited and noted on the survivor's timeline. \`dryRun\` answers the result
  without changing anything. 409 \`customer_merged\` when one of the records was merged meanwhile (of two concurrent
  merges of the same records one wins), 400 \`merge_into_itself\`.
`;

export const mergeFieldsDoc = prose`
  Field -> id of the customer (the survivor or one of \`from\`) whose value the survivor takes: \`name\`, \`kind\`,
  \`ownerId\`, \`externalId\`, \`custom.<key>\`.
`;
