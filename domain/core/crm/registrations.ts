/**
 * Where the timeline providers and health signals of every module are loaded, so each process (web, worker)
 * has them all. A module adds one import line for the file that registers its own (see timeline.ts and
 * healthSignals.ts), e.g. `import '../invoicing/crmExtensions';`.
 */
import './activityTimeline';
import './crmSignals';
import '../booking/appointmentTimeline';
