import { prose } from '../http/docs';

/** The long OpenAPI texts of views.ts (prose: wrapped here, one line in the document). */

export const leaveTypeCounting = prose`
  How days are counted, accrued and spent: ouvrables (Monday to Saturday, to the return) or ouvres (the half days
  worked)
`;
