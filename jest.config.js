/** jest + ts-jest against real PostgreSQL, Redis and s3rver; see test/support/. */
// ES-module-only packages of single sign-on, rewritten to CommonJS for jest's runtime (test/support/esmTransform.js).
const esmOnly = '(openid-client|oauth4webapi|jose|oidc-provider|koa)';

module.exports = {
  testEnvironment: 'node',
  // Fast unit tests of pure rules live beside them (domain/**/x.test.ts, api/http/x.test.ts); the HTTP suite under test/.
  roots: ['<rootDir>/test', '<rootDir>/domain', '<rootDir>/api', '<rootDir>/lib'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }],
    [`/node_modules/${esmOnly}/.+\\.js$`]: '<rootDir>/test/support/esmTransform.js',
  },
  transformIgnorePatterns: [`/node_modules/(?!${esmOnly}/)`],
  globalSetup: '<rootDir>/test/support/globalSetup.ts',
  globalTeardown: '<rootDir>/test/support/globalTeardown.ts',
  // Every answer a test receives is checked against /openapi.json; a violation fails the test. Timeouts scale
  // with the machine's load (test/support/timeScale.ts).
  setupFilesAfterEnv: ['<rootDir>/test/support/contract.ts', '<rootDir>/test/support/timeouts.ts'],
  testTimeout: 30000,
  maxWorkers: 2,
  // No handle outlives a test file (checked with async_hooks): a worker runs its exit handlers ~15 ms after
  // jest tells it to stop, but tearing down a process of a few hundred MB then took 400 ms and more on a busy
  // 2-core machine, past jest's default 500 ms grace ("a worker process has failed to exit gracefully").
  // A leaked handle would still keep a worker alive past this longer grace, and be reported.
  workerGracefulExitTimeout: 5000,
  // Each test file loads the whole app into a fresh module registry; what a worker keeps between files grew past
  // its heap over 250 files ("Jest worker ran out of memory"). A worker above this after a file is replaced.
  workerIdleMemoryLimit: '1200MB',
};
