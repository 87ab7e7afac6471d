import { prose } from '../../http/docs';

export const importViewFailedDoc = prose`
  Refusals reported in errors; once the import failed as a whole (status failed), every record not written
`;
