import { rawExchange, type RawAnswer } from '../support/rawHttp';
import { startStack, type TestStack } from '../support/stack';

/**
 * What Node's HTTP parser refuses before any route sees it (a malformed request line or header, headers too
 * large, a request past its timeout) is answered as every refusal: an RFC 9457 problem with a stable code,
 * not Node's empty 400/408/431; and the process goes on serving.
 */
describe("Node's own refusals", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: false, env: { HTTP_REQUEST_TIMEOUT_SECONDS: '2' } });
  });
  afterAll(() => stack.close());

  const problem = (answer: RawAnswer) => ({
    status: answer.status,
    type: answer.headers['content-type'],
    code: answer.json?.code,
    problemStatus: answer.json?.status,
    timedOut: answer.timedOut,
  });
  const expectProblem = (answer: RawAnswer, status: number, code: string) => {
    expect(problem(answer)).toEqual({
      status,
      type: 'application/problem+json',
      code,
      problemStatus: status,
      timedOut: false,
    });
    expect(answer.json).toMatchObject({
      type: `/problems/${code}`,
      title: expect.any(String),
      detail: expect.any(String),
    });
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.text));
  };

  afterEach(async () => {
    await stack.http.get('/health').expect(200);
  });

  it('answers a malformed request line with 400 malformed_request', async () => {
    expectProblem(await rawExchange(stack.url, 'NOT A REQUEST LINE\r\n\r\n'), 400, 'malformed_request');
    expectProblem(await rawExchange(stack.url, 'GET / HTTP/9.9\r\nHost: x\r\n\r\n'), 400, 'malformed_request');
  });

  it('answers a malformed header with 400 malformed_request', async () => {
    expectProblem(
      await rawExchange(stack.url, 'GET /health HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n'),
      400,
      'malformed_request',
    );
    expectProblem(
      await rawExchange(
        stack.url,
        'POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
      ),
      400,
      'malformed_request',
    );
  });

  it('answers headers over 16 KB with 431 headers_too_large', async () => {
    expectProblem(
      await rawExchange(stack.url, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
      431,
      'headers_too_large',
    );
  });

  it('answers headers that do not finish in time with 408 request_timeout', async () => {
    const started = Date.now();
    const answer = await rawExchange(stack.url, 'GET /health HTTP/1.1\r\nHost: x\r\n', { end: false, timeoutMs: 8000 });
    expectProblem(answer, 408, 'request_timeout');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('answers a body that does not arrive in time with 408 request_timeout', async () => {
    const answer = await rawExchange(
      stack.url,
      'POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
      { end: false, timeoutMs: 8000 },
    );
    expectProblem(answer, 408, 'request_timeout');
  });
});
