import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';

/**
 * `npm run simulate:headset -- --email you@example.com --password ... [--room <id>] [--api http://localhost:3000]
 *   [--users 5] [--heartbeat-ms 20000] [--tick-ms 300]`
 * (or VR_API_URL, VR_EMAIL, VR_PASSWORD, VR_ROOM_ID). Plays one headset: logs in, hosts the room (or joins
 * the session running in it), heartbeats, streams telemetry for --users simulated trainees (random user ids)
 * plus itself through every step of the simulation, leaves, then prints the session's report.
 */
const { values } = parseArgs({
  options: {
    api: { type: 'string', default: process.env.VR_API_URL ?? 'http://localhost:3000' },
    email: { type: 'string', default: process.env.VR_EMAIL },
    password: { type: 'string', default: process.env.VR_PASSWORD },
    room: { type: 'string', default: process.env.VR_ROOM_ID },
    users: { type: 'string', default: '5' },
    'heartbeat-ms': { type: 'string', default: '20000' },
    'tick-ms': { type: 'string', default: '300' },
  },
});

const api = values.api!.replace(/\/$/, '');
/** On a terminal progress rewrites one line; piped or redirected (CI, a log file), each step gets its own line. */
const tty = process.stdout.isTTY === true;
const trainees = Math.max(0, Number(values.users));
let token = '';

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(`${status} ${String(body.code ?? '')} ${String(body.detail ?? '')}`.trim());
  }
}

async function call<T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  if (!res.ok) throw new HttpError(res.status, parsed);
  return parsed as T;
}

/** Telemetry with an Idempotency-Key: a retry after a network error or a 5xx counts once. */
async function sendBatch(sessionId: string, events: object[]): Promise<void> {
  const key = randomUUID();
  for (let attempt = 1; ; attempt++) {
    try {
      await call('POST', `/sessions/${sessionId}/telemetry`, { events }, { 'Idempotency-Key': key });
      return;
    } catch (err) {
      const retriable = !(err instanceof HttpError) || err.status >= 500 || err.status === 429;
      if (!retriable || attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
    }
  }
}

interface RuntimeRoom {
  id: string;
  name: string;
  simulation: string;
  simulationSteps: number;
  sessionRunning: boolean;
}

async function main() {
  if (!values.email || !values.password)
    throw new Error('--email and --password (or VR_EMAIL and VR_PASSWORD) are required');
  token = (
    await call<{ accessToken: string }>('POST', '/auth/login', { email: values.email, password: values.password })
  ).accessToken;
  const me = await call<{ id: string; displayName: string }>('GET', '/users/me');

  const { items: rooms } = await call<{ items: RuntimeRoom[] }>('GET', '/runtime/rooms');
  const room = values.room ? rooms.find((r) => r.id === values.room) : rooms[0];
  if (!room)
    throw new Error(
      values.room
        ? `room ${values.room} is not open or not assigned to ${values.email}`
        : `no open room is assigned to ${values.email}`,
    );
  console.log(`room "${room.name}" (${room.id}), simulation ${room.simulation}, ${room.simulationSteps} steps`);

  let session: { id: string };
  let hosting = false;
  try {
    session = await call('POST', `/rooms/${room.id}/${room.sessionRunning ? 'join' : 'host'}`);
    hosting = !room.sessionRunning;
  } catch (err) {
    if (!(err instanceof HttpError && err.body.code === 'session_already_running')) throw err;
    session = await call('POST', `/rooms/${room.id}/join`);
  }
  console.log(`${hosting ? 'hosting' : 'joined'} session ${session.id}`);

  let currentStep = 'start';
  const beat = () =>
    call('POST', `/rooms/${room.id}/heartbeat`, {
      displayName: `${me.displayName} (simulated headset)`,
      currentStep,
      isHost: hosting,
    }).catch((err: Error) => console.error(`heartbeat failed: ${err.message}`));
  await beat();
  const heartbeats = setInterval(() => void beat(), Number(values['heartbeat-ms']));

  // Everyone walks through the steps; trainees are a little random: some grab objects, some stop early.
  const people = [undefined, ...Array.from({ length: trainees }, () => randomUUID())];
  const quitsAt = new Map(
    people.map((p, i) => [
      p,
      i === 0
        ? room.simulationSteps
        : Math.random() < 0.3
          ? Math.ceil(Math.random() * room.simulationSteps)
          : room.simulationSteps,
    ]),
  );
  let sent = 0;
  try {
    for (let step = 1; step <= room.simulationSteps; step++) {
      currentStep = `step-${step}`;
      const events = people.flatMap((userId) => {
        if (step > quitsAt.get(userId)!) return [];
        const who = userId ? { userId } : {};
        const batch: object[] = [
          {
            ...who,
            type: 'step_passed',
            label: `step-${step}`,
            detail: `passed after ${Math.round(Math.random() * 40 + 5)} s`,
          },
        ];
        if (Math.random() < 0.5)
          batch.push({
            ...who,
            type: 'object_grabbed',
            label: `tool-${Math.ceil(Math.random() * 4)}`,
            detail: 'right hand',
          });
        if (step === room.simulationSteps)
          batch.push({ ...who, type: 'simulation_completed', label: room.simulation, detail: '' });
        return batch;
      });
      for (let i = 0; i < events.length; i += 50) await sendBatch(session.id, events.slice(i, i + 50));
      sent += events.length;
      const progress = `step ${step}/${room.simulationSteps}: ${sent} events sent`;
      if (tty) process.stdout.write(`\r${progress}`);
      else console.log(progress);
      await new Promise((r) => setTimeout(r, Number(values['tick-ms'])));
    }
  } finally {
    clearInterval(heartbeats);
  }
  if (tty) console.log();
  const left = await call<{ sessionEnded: boolean }>('POST', `/rooms/${room.id}/leave`);
  console.log(left.sessionEnded ? 'left the room: the session ended' : 'left the room');

  type Report = {
    id: string;
    eventsCount: number;
    durationSeconds: number;
    completionRate: number | null;
    participants: {
      userId: string;
      displayName: string | null;
      stepsPassed: number;
      progress: number;
      completed: boolean;
    }[];
  };
  let report: Report | undefined;
  for (let deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
    report = (await call<{ items: Report[] }>('GET', `/reports/sessions?roomId=${room.id}&limit=5`)).items.find(
      (s) => s.id === session.id,
    );
    if (report && report.eventsCount >= sent) break;
  }
  if (!report) throw new Error('the session report is not available (the account needs vr.reports.read)');
  const rate = report.completionRate === null ? 'n/a' : `${Math.round(report.completionRate * 100)}%`;
  console.log(
    `\nsession ${report.id}: ${report.eventsCount} events, ${report.durationSeconds} s, completion rate ${rate}`,
  );
  console.table(
    report.participants.map((p) => ({
      participant: p.displayName ?? p.userId,
      steps: p.stepsPassed,
      progress: `${Math.round(p.progress * 100)}%`,
      completed: p.completed,
    })),
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
