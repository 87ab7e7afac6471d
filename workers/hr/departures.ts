import { recordDepartures } from '../../domain/hr/recordDepartures';
import { hrDeparturesQueue } from '../../queues/hr';
import { defineProcessor } from '../define';

/** Employees past their last day become `left` (domain/hr/recordDepartures.ts). */
export const hrDeparturesProcessor = defineProcessor(hrDeparturesQueue, {
  perform: (_payload, { services }) => recordDepartures(services),
});
