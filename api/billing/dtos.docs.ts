import { prose } from '../http/docs';

/** Long descriptions of the schemas of dtos.ts (the OpenAPI text). */

/** StartTrialBody.modules */
export const startTrialModules = prose`
  Paid modules the trial unlocks (none may be in the current plan already); omitted: every module the organisation does
  not have yet
`;

/** ChangePlanBody.addons */
export const changePlanAddons = prose`
  Every add-on module wanted after the change (replaces the set); omitted keeps the current add-ons the new tier does
  not include
`;
