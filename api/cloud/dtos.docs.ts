import { prose } from '../http/docs';

/** Long OpenAPI descriptions of dtos.ts, kept out of its table. */

export const cloudUploadUrlBodyNameDoc = prose`
  File name as members see it (sanitised: separators and control characters become "_"; never part of the storage key)
`;

export const cloudShareBodyKindDoc = prose`
  link: an address anyone holding it may open (needs cloud.share); members: members of the organisation, notified
`;
