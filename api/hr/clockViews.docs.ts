import { prose } from '../http/docs';

/** The long OpenAPI texts of clockViews.ts (prose: wrapped here, one line in the document). */

export const clockEventEffective = prose`
  The punch as it stands in the timeline (corrections applied in order, each field taking its latest value); null when
  voided
`;

export const clockEventCorrections = prose`
  Every correction, oldest first (the trail): each amendment sets the fields it gives; the last one decides whether the
  punch is voided
`;
