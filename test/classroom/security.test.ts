import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExerciseFiles, parseExercise } from '../../classroom/exercise-schema.ts';
import { resultsCsv } from '../../classroom/export-results.ts';
import { signControl } from '../proxy/signers.ts';
import { cardParams, startRoom, Trainee, type Room } from './support.ts';

describe('classroom: who may do what', () => {
  let room: Room;
  let ann: Trainee;
  let bob: Trainee;
  const host = () => `127.0.0.1:${room.port}`;
  beforeAll(async () => {
    room = await startRoom();
    ann = await new Trainee(room, 'Ann').join();
    bob = await new Trainee(room, 'Bob').join();
  });
  afterAll(async () => {
    await room?.close();
  });

  it('hands each trainee a merchant of their own, with HttpOnly SameSite=Strict session cookies of ≥128 bits', async () => {
    expect(ann.login).not.toBe(bob.login);
    expect(ann.endpointId).not.toBe(bob.endpointId);
    expect(ann.controlKey).not.toBe(bob.controlKey);
    const res = await room.app.inject({
      method: 'POST',
      url: '/classroom/join',
      headers: { host: host(), origin: room.origin, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Cy', publicKeyPem: new Trainee(room, 'x').publicKeyPem }),
    });
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    const value = /pc_trainee=([^;]+)/.exec(setCookie)![1]!;
    expect(Buffer.from(value, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
  });

  it('refuses a trainee’s request to another trainee’s endpoint, through the proxy and directly', async () => {
    const viaProxy = await bob.control('v2/sale', cardParams(), {
      endpointId: ann.endpointId,
      controlKey: ann.controlKey,
    });
    expect(viaProxy.status).toBe(403);
    expect(viaProxy.body['error-reason']).toBe('NOT_YOUR_ENDPOINT');
    const signed = signControl('v2/sale', cardParams(), { ...ann, endpointId: ann.endpointId });
    const direct = await room.app.inject({
      method: 'POST',
      url: `/sandbox/paynet/${signed.path}`,
      headers: { host: host(), cookie: bob.cookie, ...signed.headers },
      payload: signed.body,
    });
    expect(direct.statusCode).toBe(403);
    const anonymous = await room.app.inject({
      method: 'POST',
      url: `/sandbox/paynet/${signed.path}`,
      headers: { host: host(), ...signed.headers },
      payload: signed.body,
    });
    expect(anonymous.statusCode).toBe(401);
    // The demo merchant's keys and key registration are closed in classroom mode.
    expect((await ann.get('/sandbox/demo-merchant')).status).toBe(403);
  });

  it('keeps transactions, results and callbacks apart', async () => {
    const ack = await ann.control('v2/sale', cardParams());
    expect(ack.status).toBe(200);
    // Bob names Ann's order on his own endpoint: the sandbox finds no such order of his.
    const peek = await bob.control('v2/status', [
      ['login', bob.login],
      ['client_orderid', String(ack.body['merchant-order-id'])],
      ['orderid', String(ack.body['paynet-order-id'])],
    ]);
    expect(peek.status).toBe(400);
    expect(String(peek.body['error-message'])).toMatch(/not an order of merchant/);
    const annView = JSON.parse((await ann.get('/classroom/me')).body);
    const bobView = JSON.parse((await bob.get('/classroom/me')).body);
    expect(annView.trainee.login).toBe(ann.login);
    expect(bobView.trainee.login).toBe(bob.login);
    expect(JSON.stringify(bobView)).not.toContain(ann.login);
    // A callback inbox belongs to the trainee who reads it first.
    expect((await ann.get('/callbacks/ann-inbox-1/list')).status).toBe(200);
    expect((await bob.get('/callbacks/ann-inbox-1/list')).status).toBe(403);
    expect((await bob.get('/callbacks/ann-inbox-1/list', '')).status).toBe(401);
  });

  it('opens the trainer API to the trainer token only', async () => {
    const token = room.app.classroom.trainerToken();
    expect(Buffer.from(token, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    expect((await ann.get('/classroom/trainer/state')).status).toBe(403);
    expect((await ann.get('/classroom/trainer/export.csv')).status).toBe(403);
    expect((await ann.get('/classroom/trainer/state', '')).status).toBe(401);
    expect((await ann.get('/classroom/trainer-login?token=wrong', '')).status).toBe(403);
    const login = await ann.get(`/classroom/trainer-login?token=${token}`, '');
    expect(login.status).toBe(303);
    const trainerCookie = String(login.headers['set-cookie']).split(';')[0]!;
    expect(String(login.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);
    const state = await ann.get('/classroom/trainer/state', trainerCookie);
    expect(state.status).toBe(200);
    expect(JSON.parse(state.body).trainees.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining(['Ann', 'Bob']),
    );
    const csv = await ann.get('/classroom/trainer/export.csv', trainerCookie);
    expect(csv.status).toBe(200);
    expect(csv.body.split('\r\n')[0]).toBe(
      'trainee,login,exercise,title,state,attempts,started_at,done_at,seconds',
    );
    // A trainee's action on the trainer API is refused even with a good Origin.
    const reset = await room.app.inject({
      method: 'POST',
      url: '/classroom/trainer/reset',
      headers: { host: host(), origin: room.origin, cookie: ann.cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ traineeId: bob.id }),
    });
    expect(reset.statusCode).toBe(403);
  });

  it('checks Origin on every state-changing request', async () => {
    const payload = JSON.stringify({ exerciseId: 'broken-capture', choice: 'wrong-key' });
    for (const origin of [undefined, 'http://evil.example']) {
      const res = await room.app.inject({
        method: 'POST',
        url: '/classroom/answer',
        headers: {
          host: host(),
          cookie: ann.cookie,
          'content-type': 'application/json',
          ...(origin ? { origin } : {}),
        },
        payload,
      });
      expect(res.statusCode).toBe(403);
    }
    const signed = signControl('v2/sale', cardParams(), ann);
    const noOrigin = await room.app.inject({
      method: 'POST',
      url: `/proxy/local/${signed.path}`,
      headers: { host: host(), cookie: ann.cookie, ...signed.headers },
      payload: signed.body,
    });
    expect(noOrigin.statusCode).toBe(403);
  });

  it('forwards only to the local sandbox', async () => {
    const targets = JSON.parse((await ann.get('/proxy/targets')).body) as Array<{ name: string }>;
    expect(targets.map((t) => t.name)).toEqual(['local']);
  });
});

describe('classroom: limits, addresses, restart', () => {
  it('rate-limits each trainee on their own', async () => {
    const room = await startRoom({ limits: { ratePerSecond: 1, rateBurst: 3 } });
    try {
      const ann = await new Trainee(room, 'Ann').join();
      const bob = await new Trainee(room, 'Bob').join();
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) codes.push((await ann.control('v2/sale', cardParams())).status);
      expect(codes.slice(0, 3)).toEqual([200, 200, 200]);
      expect(codes.slice(3)).toEqual([429, 429]);
      expect((await bob.control('v2/sale', cardParams())).status).toBe(200);
    } finally {
      await room.close();
    }
  });

  it('answers to the address the trainer gave', async () => {
    const room = await startRoom({ env: { HOST: '127.0.0.1', ALLOWED_HOSTS: '' } });
    try {
      const ok = await room.app.inject({
        method: 'GET',
        url: '/proxy/targets',
        headers: { host: `127.0.0.1:${room.port}` },
      });
      expect(ok.statusCode).toBe(200);
      const other = await room.app.inject({
        method: 'GET',
        url: '/proxy/targets',
        headers: { host: 'evil.example' },
      });
      expect(other.statusCode).toBe(421);
    } finally {
      await room.close();
    }
  });

  it('keeps trainees, merchants and results across a restart', async () => {
    const first = await startRoom();
    const ann = await new Trainee(first, 'Ann').join();
    const ack = await ann.control('v2/sale', cardParams());
    first.clock.advance(1500);
    await ann.status(ack.body);
    expect(await ann.state('sale-control')).toBe('done');
    const token = first.app.classroom.trainerToken();
    await first.close();

    const second = await startRoom({ dataDir: first.dataDir, clock: first.clock });
    try {
      const again = Object.assign(new Trainee(second, 'Ann'), {
        login: ann.login,
        controlKey: ann.controlKey,
        endpointId: ann.endpointId,
        cookie: ann.cookie,
      });
      expect(await again.state('sale-control')).toBe('done');
      expect(second.app.classroom.trainerToken()).toBe(token);
      // The merchant survived with its keys: a new sale on the same endpoint is accepted.
      expect((await again.control('v2/sale', cardParams())).status).toBe(200);
    } finally {
      await second.close();
    }
  });
});

describe('exercise files', () => {
  const good = {
    id: 'x',
    title: 'X',
    goal: 'Do x.',
    check: { kind: 'accepted', operation: 'v2/sale', scheme: 'control' },
  };

  it('loads the starter set', () => {
    expect(loadExerciseFiles(path.resolve('classroom/exercises')).map((e) => e.id)).toEqual([
      'sale-control',
      'payout-hmac',
      'payout-rsa',
      'sale-3ds2',
      'broken-capture',
      'partial-settlement',
      'own-broken-capture',
    ]);
  });

  it('names the file and the field of a bad exercise', () => {
    expect(() => parseExercise('ex.json', '{')).toThrow(/^ex\.json: not valid JSON/);
    expect(() =>
      parseExercise('ex.json', JSON.stringify({ ...good, check: { ...good.check, operation: 'v2/nope' } })),
    ).toThrow(/^ex\.json: check\.operation: is not an operation of the catalog/);
    expect(() =>
      parseExercise(
        'ex.json',
        JSON.stringify({ ...good, check: { ...good.check, scheme: 'oauth-rsa-sha256' } }),
      ),
    ).toThrow(/^ex\.json: check\.scheme: the operation is not signed with that scheme/);
    expect(() => parseExercise('ex.json', JSON.stringify({ ...good, id: 'Bad Id' }))).toThrow(
      /^ex\.json: id: /,
    );
    const dir = mkdtempSync(path.join(tmpdir(), 'exercises-'));
    writeFileSync(path.join(dir, 'a.json'), JSON.stringify(good));
    writeFileSync(path.join(dir, 'b.json'), JSON.stringify(good));
    expect(() => loadExerciseFiles(dir)).toThrow(/b\.json: id: "x" is already the id of .*a\.json/);
  });

  it('exports CSV that a spreadsheet cannot mistake for a formula', () => {
    const csv = resultsCsv({
      exercises: [{ id: 'x', title: 'X, "quoted"', locked: false, hintsShown: 0, hintsTotal: 0 }],
      trainees: [
        {
          id: '1',
          name: '=HYPERLINK("x")',
          login: 'trainee-1',
          joinedAt: 0,
          done: 0,
          lastRefused: null,
          results: [{ id: 'x', state: 'open', detail: '', attempts: 2, startedAt: null, doneAt: null }],
        },
      ],
      mistakes: [],
      at: 0,
    });
    expect(csv.split('\r\n')[1]).toBe(`"'=HYPERLINK(""x"")",trainee-1,x,"X, ""quoted""",open,2,,,`);
  });
});
