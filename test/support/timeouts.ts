import { scaled } from './timeScale';

// Loaded before every test file (jest.config.js): the default test and hook timeout (30 s idle) scales with the
// machine's load (test/support/timeScale.ts); a test that sets its own timeout keeps it.
jest.setTimeout(scaled(30_000));
