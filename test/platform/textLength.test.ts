import type { EntityName, FilterQuery } from '@mikro-orm/core';
import express from 'express';
import request from 'supertest';
import { problemHandler } from '../../api/http/problems';
import { ingestTelemetry } from '../../domain/vr/ingestTelemetry';
import { ChatMessage } from '../../entities/work/chat';
import { VrTelemetryEvent } from '../../entities/vr/telemetry';
import { WorkItem } from '../../entities/work/workItem';
import { createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';
import { createRoom, vrOrg, type VrOrg } from '../support/vr';
import { eventually } from '../support/wait';

/**
 * Text limits count code points, as PostgreSQL's varchar(n) and JSON Schema's maxLength do (api/http/dtos.ts
 * Length/MaxLength), not validator.js isLength, which counts a character and its variation selector as one.
 */
const HEART = '\u2764\uFE0F'; // ❤️ : two code points
const GRIN = '\u{1F600}'; // 😀 : one code point, two UTF-16 code units

describe('text limits count code points, like the database columns', () => {
  let stack: TestStack;
  let owner: Account;
  let org: VrOrg;
  beforeAll(async () => {
    stack = await startStack();
    owner = await createAccount(stack);
    org = await vrOrg(stack, 1);
  });
  afterAll(() => stack.close());

  const count = <T extends object>(entity: EntityName<T>, where = {} as FilterQuery<T>) =>
    stack.services.orm.em.fork().count(entity, where, { filters: { tenant: false } });

  it('chat integration: 2001 "❤️" (4002 code points) is 400 validation_failed, nothing stored; 2000 is stored', async () => {
    const ch = (await stack.http.post('/api/chat/channels').set(owner.auth).send({ name: 'alerts' }).expect(201))
      .body as { id: string };
    const t = (
      await stack.http.post(`/api/chat/channels/${ch.id}/tokens`).set(owner.auth).send({ label: 'CI' }).expect(201)
    ).body as { token: string };
    const before = await count(ChatMessage);
    const res = await stack.http.post(`/api/integrations/${t.token}`).send({ text: HEART.repeat(2001) });
    expectProblem(res, 400, 'validation_failed');
    expect(res.body.errors).toEqual([
      { field: 'text', message: 'text must be shorter than or equal to 4000 characters' },
    ]);
    expect(await count(ChatMessage)).toBe(before);
    await stack.http
      .post(`/api/integrations/${t.token}`)
      .send({ text: HEART.repeat(2000) })
      .expect(201);
    expect(await count(ChatMessage)).toBe(before + 1);
  });

  it('work items: a title of 151 "❤️" (302 code points) is 400 validation_failed; 150 (300) and 300 "😀" are created', async () => {
    const before = await count(WorkItem);
    const res = await stack.http
      .post('/api/work/items')
      .set(owner.auth)
      .send({ title: HEART.repeat(151) });
    expectProblem(res, 400, 'validation_failed');
    expect(res.body.errors).toEqual([
      { field: 'title', message: 'title must be shorter than or equal to 300 characters' },
    ]);
    expect(await count(WorkItem)).toBe(before);
    const exact = await stack.http
      .post('/api/work/items')
      .set(owner.auth)
      .send({ title: HEART.repeat(150) })
      .expect(201);
    expect(exact.body.title).toBe(HEART.repeat(150));
    await stack.http
      .post('/api/work/items')
      .set(owner.auth)
      .send({ title: GRIN.repeat(300) })
      .expect(201);
    expect(await count(WorkItem)).toBe(before + 2);
  });

  it('VR telemetry: a 101 "❤️" label (202 code points) refuses the batch with 400 at the edge, nothing queued', async () => {
    const [a] = org.members;
    const room = (
      await createRoom(stack, org.admin, {
        simulation: 'fire-safety-101',
        simulationSteps: 4,
        participantIds: [a.user.id],
      })
    ).id;
    const session = (await stack.http.post(`/rooms/${room}/host`).set(a.auth).expect(201)).body.id as string;
    const res = await stack.http
      .post(`/sessions/${session}/telemetry`)
      .set(a.auth)
      .send({
        events: [
          { type: 'step_passed', label: 's1', detail: '' },
          { type: 'object_grabbed', label: HEART.repeat(101), detail: '' },
        ],
      });
    expectProblem(res, 400, 'validation_failed');
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'events[1].label' })]);
    const tooLongType = await stack.http
      .post(`/sessions/${session}/telemetry`)
      .set(a.auth)
      .send({ events: [{ type: HEART.repeat(33), label: 's1', detail: '' }] });
    expectProblem(tooLongType, 400, 'validation_failed');
    expect((await stack.http.get(`/sessions/${session}`).set(org.admin.auth)).body.eventsCount).toBe(0);
    expect(await count(VrTelemetryEvent, { sessionId: session })).toBe(0);
  });

  it('VR telemetry: a label of exactly 200 code points (100 "❤️") is accepted and applied with its batch', async () => {
    const [a] = org.members;
    const room = (
      await createRoom(stack, org.admin, {
        name: 'Exact',
        simulation: 'fire-safety-101',
        simulationSteps: 4,
        participantIds: [a.user.id],
      })
    ).id;
    const session = (await stack.http.post(`/rooms/${room}/host`).set(a.auth).expect(201)).body.id as string;
    await stack.http
      .post(`/sessions/${session}/telemetry`)
      .set(a.auth)
      .send({
        events: [
          { type: 'step_passed', label: 's1', detail: '' },
          { type: 'step_passed', label: HEART.repeat(100), detail: '' },
        ],
      })
      .expect(202);
    const s = await eventually(
      async () => {
        const body = (await stack.http.get(`/sessions/${session}`).set(org.admin.auth)).body;
        return body.eventsCount === 2 ? body : null;
      },
      { timeoutMs: 8000, what: 'the batch applied' },
    );
    expect(s.participants?.[0]?.stepsPassed).toBe(2);
  });

  it('VR worker defence: an event too long for its column (queued before the edge check) is dropped alone, the batch applied', async () => {
    const [a] = org.members;
    const room = (
      await createRoom(stack, org.admin, {
        name: 'Queued',
        simulation: 'fire-safety-101',
        simulationSteps: 4,
        participantIds: [a.user.id],
      })
    ).id;
    const session = (await stack.http.post(`/rooms/${room}/host`).set(a.auth).expect(201)).body.id as string;
    const warn = jest.fn();
    const result = await ingestTelemetry(
      stack.services.orm.em.fork(),
      [
        {
          tenantId: org.admin.tenantId,
          sessionId: session,
          batchKey: 'queued-before-fix',
          senderId: a.user.id,
          receivedAt: new Date().toISOString(),
          events: [
            { type: 'step_passed', label: 's1', detail: '' },
            { type: 'object_grabbed', label: HEART.repeat(101), detail: '' },
          ],
        },
      ],
      { warn },
    );
    expect(result).toEqual({ batches: 1, duplicates: 0, events: 1 });
    expect(warn).toHaveBeenCalledTimes(1);
    const s = (await stack.http.get(`/sessions/${session}`).set(org.admin.auth)).body;
    expect({ eventsCount: s.eventsCount, stepsPassed: s.participants?.[0]?.stepsPassed }).toEqual({
      eventsCount: 1,
      stepsPassed: 1,
    });
  });

  it('the OpenAPI document still states the limits (minLength/maxLength)', async () => {
    const doc = (await stack.http.get('/openapi.json').expect(200)).body;
    const schemas = doc.components.schemas;
    expect(schemas.TelemetryEventBody.properties.label).toMatchObject({ type: 'string', maxLength: 200 });
    expect(schemas.TelemetryEventBody.properties.type).toMatchObject({ type: 'string', minLength: 1, maxLength: 64 });
  });

  describe('safety net: PostgreSQL 22001 (value too long) is 400 validation_failed, never a 500', () => {
    const answer = async (error: unknown) => {
      const app = express()
        .get('/probe', (_req, _res, next) => next(error))
        .use(problemHandler(stack.services.logger));
      return request(app).get('/probe');
    };

    it('as MikroORM reports it', async () => {
      const error = await stack.services.orm.em
        .fork()
        .execute(
          `insert into vr_telemetry_batches (tenant_id, session_id, batch_key, events_count, received_at) values (gen_random_uuid(), gen_random_uuid(), ?, 0, now())`,
          ['k'.repeat(201)],
        )
        .then(
          () => null,
          (err: unknown) => err,
        );
      expect((error as { code?: string }).code).toBe('22001');
      expectProblem(await answer(error), 400, 'validation_failed');
    });

    it('as a raw Knex query reports it', async () => {
      const error = await stack.services.orm.em
        .getKnex()
        .raw(
          `insert into vr_telemetry_batches (tenant_id, session_id, batch_key, events_count, received_at) values (gen_random_uuid(), gen_random_uuid(), ?, 0, now())`,
          ['k'.repeat(201)],
        )
        .then(
          () => null,
          (err: unknown) => err,
        );
      expect((error as { code?: string }).code).toBe('22001');
      expectProblem(await answer(error), 400, 'validation_failed');
    });
  });
});
