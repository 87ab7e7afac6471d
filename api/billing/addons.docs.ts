import { prose } from '../http/docs';

/** Long descriptions of the routes of addons.ts (the OpenAPI text). */

/** GET /api/addons */
export const getAddons = prose`
  The add-ons on sale, plus any my organisation holds that are no longer on sale, each flagged \`owned\`. Not paginated
  (one per module at most).
`;
