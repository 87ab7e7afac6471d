import { takeContractViolations } from '../../api/http/contract';

/**
 * Loaded before every test file (jest.config.js, setupFilesAfterEnv). In tests the app checks each answer against
 * /openapi.json and each WebSocket frame it sends against /asyncapi.json (api/http/contract.ts); a test during
 * which one broke them fails, naming them. Nothing to write in a new test file: this covers it.
 */
function failOnViolations(): void {
  const violations = takeContractViolations();
  if (violations.length)
    throw new Error(
      `Answers that break the published contract (/openapi.json, /asyncapi.json):\n  ${violations.join('\n  ')}`,
    );
}

afterEach(failOnViolations);
afterAll(failOnViolations);
