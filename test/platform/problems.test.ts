import express from 'express';
import request from 'supertest';
import { problemHandler } from '../../api/http/problems';
import { expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

/** api/http/problems.ts: a value PostgreSQL refuses is the client's fault (400), never a 500, whichever route it reaches. */
describe('problems of PostgreSQL refusing a value', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
  });
  afterAll(() => stack.close());

  /** The error PostgreSQL raises for this statement, as MikroORM reports it. */
  const refusal = (sql: string, value: string) =>
    stack.services.orm.em
      .fork()
      .execute(sql, [value])
      .then(
        () => null,
        (err: unknown) => err,
      );

  it.each([
    ['22P02', 'select ?::uuid', 'not-a-uuid'],
    ['22P05', 'select ?::jsonb', '{"note":"a\\u0000b"}'],
    ['22021', `select convert_from(decode(?, 'hex'), 'UTF8')`, '610062'],
  ])('answers %s with 400 invalid_input', async (code, sql, value) => {
    const error = await refusal(sql, value);
    expect((error as { code?: string }).code).toBe(code);
    const app = express()
      .get('/probe', (_req, _res, next) => next(error))
      .use(problemHandler(stack.services.logger));
    expectProblem(await request(app).get('/probe'), 400, 'invalid_input');
  });
});
