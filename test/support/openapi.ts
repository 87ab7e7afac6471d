import { Contract, type Document } from '../../api/http/contract';
import type { TestStack } from './stack';

/**
 * The published document of a stack, read through GET /openapi.json (itself checked like every answer), once
 * per stack. Answers are checked against it automatically (test/support/contract.ts); requests are not, since
 * tests send invalid ones on purpose: a test that sends one the server must take checks it with
 * `requestProblem`, so the document cannot refuse what the server takes (a nullable field, a date ...).
 */
const published = new WeakMap<TestStack, Promise<{ doc: Document; contract: Contract }>>();

export function publishedDocument(stack: TestStack): Promise<{ doc: Document; contract: Contract }> {
  let found = published.get(stack);
  if (!found) {
    found = stack.http.get('/openapi.json').then((res) => {
      if (res.status !== 200) throw new Error(`/openapi.json answered ${res.status}`);
      return { doc: res.body as Document, contract: new Contract(res.body as Document) };
    });
    published.set(stack, found);
  }
  return found;
}

/** What the published document finds wrong with this request body of `METHOD /template/{id}`; undefined when it takes it. */
export async function requestProblem(
  stack: TestStack,
  method: string,
  path: string,
  body: unknown,
  contentType = 'application/json',
): Promise<string | undefined> {
  return (await publishedDocument(stack)).contract.checkRequestBody(method, path, contentType, body);
}
