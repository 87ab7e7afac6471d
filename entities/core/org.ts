import { Business } from './business';

/** Entities of the core service's organisation part, registered in entities/index.ts. */
export const coreOrgEntities = [Business];
