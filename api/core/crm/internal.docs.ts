import { prose } from '../../http/docs';

export const syncActivitiesFromAnotherDoc = prose`
  Upserts up to 500 activities of one organisation by (customer, source, externalId): a replay updates them. Each names
  its customer by customerId (400 when unknown) or customerEmail (found by primary e-mail, or created as a person). 404
  when the organisation does not exist.
`;

export const logEMailContactsDoc = prose`
  Logs a completed \`email\` activity on the sender (inbound) or on each recipient, to and cc (outbound), found by
  primary e-mail or created as a person; logging a messageId again updates the same activities. 404 when the
  organisation does not exist.
`;
