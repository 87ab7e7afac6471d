/** jest + ts-jest against real PostgreSQL, Redis and s3rver; see test/support/. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }] },
  globalSetup: '<rootDir>/test/support/globalSetup.ts',
  testTimeout: 30000,
  maxWorkers: 2,
  // Each file boots its own app instances; give connections time to close between files.
  forceExit: false,
};
