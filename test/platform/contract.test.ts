import type { WebSocket } from 'ws';
import { socketContract, takeContractViolations } from '../../api/http/contract';
import { Reply } from '../../api/http/routes';
import { apiModules } from '../../api/modules';
import { HealthView } from '../../api/system/views';
import { assistantChannel } from '../../api/vr/assistantChannel';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';

/** A route that answers what its declaration says, or breaks it on purpose, to see the check catch it. */
apiModules.push(({ routes }) => {
  routes('Contract probe').get('/contract-probe/:answer', { summary: 'Contract probe', access: 'public', response: HealthView }, ({ req, res }) => {
    const view: HealthView = { status: 'ok', version: '1', uptimeSeconds: 1 };
    if (req.params.answer === 'extra') return { ...view, secret: 'x' };
    if (req.params.answer === 'null') return { ...view, version: null };
    if (req.params.answer === 'status') return new Reply(202, view);
    // Written, not given to res.json (a stream, an export): only its media type can be checked.
    if (req.params.answer === 'csv') return void res.type('text/csv').end('status\nok\n');
    return view;
  });
});

/**
 * The contract check itself (api/http/contract.ts): in tests every answer is compared with /openapi.json and
 * every WebSocket frame with /asyncapi.json; a test during which one breaks them fails (test/support/contract.ts).
 */
describe('the published contract, checked in tests', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
  });
  afterAll(() => stack.close());

  it('lets a true answer pass and records the ones that break the document', async () => {
    expect((await stack.http.get('/contract-probe/ok')).status).toBe(200);
    await stack.http.get('/nope');
    expect(takeContractViolations()).toEqual([]);

    await stack.http.get('/contract-probe/extra');
    await stack.http.get('/contract-probe/null');
    await stack.http.get('/contract-probe/status');
    await stack.http.get('/contract-probe/csv');
    const violations: string[] = [];
    await eventually(() => violations.push(...takeContractViolations()) >= 4, { what: 'four violations' });
    expect(violations).toEqual([
      'GET /contract-probe/extra answered 200: body must NOT have additional properties (secret)',
      'GET /contract-probe/null answered 200: body/version must be string',
      expect.stringMatching(/^GET \/contract-probe\/status answered 202: status 202 is not declared/),
      'GET /contract-probe/csv answered 200: a text/csv body is not declared for 200 (declared: application/json)',
    ]);
  });

  it('checks the frames a WebSocket endpoint sends against its AsyncAPI messages', () => {
    const sent: unknown[] = [];
    const socket = { send: (data: unknown) => sent.push(data) } as unknown as WebSocket;
    socketContract(socket, '/assistant', assistantChannel);
    socket.send(JSON.stringify({ type: 'delta', text: 'Look at ' }));
    socket.send(JSON.stringify({ type: 'action', name: 'highlight_object', args: '{"objectName":"red valve"}' }));
    expect(takeContractViolations()).toEqual([]);
    socket.send(JSON.stringify({ type: 'delta', text: 1 }));
    socket.send(JSON.stringify({ type: 'shout' }));
    expect(takeContractViolations()).toHaveLength(2);
    expect(sent).toHaveLength(4);
  });
});
