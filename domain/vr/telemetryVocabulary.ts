/**
 * Telemetry event types with a meaning for progress. Any other type (object_grabbed, step_changed, ...)
 * is stored and counted, and drives nothing.
 */
export const STEP_PASSED = 'step_passed';
export const SIMULATION_COMPLETED = 'simulation_completed';

export const TELEMETRY_VOCABULARY = `Event types with a meaning:
- \`step_passed\`: the participant passed the step named by \`label\`. Distinct labels count toward progress
  (passing a step twice counts once); progress = distinct steps passed / the room's simulationSteps.
- \`simulation_completed\`: the participant completed the simulation.
A participant is completed on \`simulation_completed\` or once every step is passed. Any other type (for
instance \`object_grabbed\`, \`step_changed\`, \`hint_shown\`) is stored and counted in eventsCount only.`;

export const MAX_BATCH_EVENTS = 500;
