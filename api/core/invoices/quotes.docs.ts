import { prose } from '../../http/docs';
import { ROUNDING } from './invoices.docs';

/** The long OpenAPI texts of quotes.ts and publicQuotes.ts. */

export const createQuoteDocs = prose`
  A draft quote (devis) for a customer of the CRM (404 when the organisation has none), or for a won deal (\`dealId\`:
  its customer; 404 unknown deal, 409 \`deal_not_won\` when open or lost). Lines as an invoice draft's. ${ROUNDING}
  \`validUntil\`: the last day it can be accepted (default today + 30 days; 400 when in the past). A draft has no
  number and is changed with PATCH until sent.
`;

export const patchQuoteDocs = prose`
  Changes the fields given (lines replace the lines). Only while draft: 409 \`quote_not_draft\` once sent (the
  database refuses it too).
`;

export const sendQuoteDocs = prose`
  Gives the draft the next number of the organisation's quote sequence (D-{YYYY}-00001: gapless, taken under the
  counter's row lock inside the sending transaction, the database refusing a gap; yearly reset and digits as the
  invoice settings), dates it today (Europe/Paris), copies seller and buyer, and mails the customer's primary
  address a signed link to read it, download its PDF and accept or decline it (the mail goes through the outbox,
  enqueued once committed). From then on only the customer's answer changes it. 409 \`quote_not_draft\`,
  \`quote_expired\` (validUntil passed), \`quote_no_recipient\` (the customer has no e-mail address).
`;

export const convertQuoteDocs = prose`
  Makes an invoice draft from an accepted quote (answers the invoice, 201): \`full\` (default) copies its lines;
  \`deposit\` invoices \`depositPercent\` of each VAT breakdown's taxable amount (round half up); \`balance\`,
  once the deposit invoice is issued, invoices what is left per breakdown and refers to the deposit's number, so
  deposit + balance equal the quote. Each kind once (409 \`quote_already_converted\`, also when full follows a
  deposit or the reverse); 409 \`quote_not_accepted\`, \`quote_no_deposit\`, \`deposit_not_issued\`,
  \`quote_nothing_left\`. Serialised under the quote's row lock, with a unique (quote, kind) in the database.
`;

export const publicQuoteDocs = prose`
  What the customer's signed link shows (no account; the token is \`<quote id>.<HMAC>\`, no organisation id): the
  quote as sent, its status (expired past validUntil) and the answer given. 404 for a bad token or a draft.
`;

export const answerQuoteDocs = prose`
  The customer's answer through the signed link, with the name typed; the instant, the IP address and the user
  agent are recorded. One answer per quote: of two at once the first wins (row lock) and the other gets 409
  \`quote_already_answered\`, as does any later one; 409 \`quote_expired\` past validUntil. 404 for a bad token.
`;
