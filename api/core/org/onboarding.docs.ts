import { prose } from '../../http/docs';

export const onboardingStatusDoc = prose`
  The steps of the modules the organisation uses, each done or not from real records (never ticked by hand): business
  details (address and SIREN, SIRET or VAT number), a colleague invited (an invitation pending or accepted: revoked or
  expired ones do not count) or joined, a first service, contact, invoice, public slug, drive file, VR room, employee.
  canDo: the caller holds the step's permission. Dismissal is per member.
`;

export const welcomePathDoc = prose`
  The steps the caller can do, those not done first in path order, with where to do each, and the next one.
`;
