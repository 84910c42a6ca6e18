/**
 * Issue 18's findings, as an outsider sent them to `npm run classroom` with two trainees joined:
 * each re-spelled path walked past a guard that compared the raw URL text. Over real HTTP, so the
 * path reaches the server as written.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeRawAgent, sendRaw } from '../security/raw-http.ts';
import { payoutParams, startRoom, Trainee, type Room } from './support.ts';

const otherKeyPem = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 })
    .publicKey.export({ type: 'spki', format: 'pem' })
    .toString();

describe('classroom guards decide on the route, whatever the spelling', () => {
  let room: Room;
  let ann: Trainee;
  let bob: Trainee;
  let host: Record<string, string>;
  const inbox = 's-4f1c2d9a-ann';
  const inboxTail = inbox.slice(1);
  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    sendRaw(room.port, method, path, { ...host, ...headers }, body);
  const keyBody = (pem: string) => JSON.stringify({ publicKeyPem: pem });
  const json = { 'content-type': 'application/json' };

  beforeAll(async () => {
    room = await startRoom();
    host = { host: `127.0.0.1:${room.port}` };
    ann = await new Trainee(room, 'Ann').join();
    bob = await new Trainee(room, 'Bob').join();
    expect((await send('GET', `/callbacks/${inbox}/list`, { cookie: ann.cookie })).status).toBe(200);
    const delivered = await send(
      'POST',
      `/callbacks/${inbox}`,
      { 'content-type': 'application/x-www-form-urlencoded' },
      'status=approved&orderid=1',
    );
    expect(delivered.status).toBe(200);
  });
  afterAll(async () => {
    closeRawAgent();
    await room?.close();
  });

  it('keeps a trainee’s key from anyone but them and the trainer: PUT /sandbox/%6Derchants/…', async () => {
    const put = await send(
      'PUT',
      `/sandbox/%6Derchants/${ann.login}/public-key`,
      json,
      keyBody(otherKeyPem()),
    );
    expect(put.status).toBe(403);
    expect(put.code).toBe('ORIGIN_REQUIRED');
    const asBob = await send(
      'PUT',
      `/sandbox/%6Derchants/${ann.login}/public-key`,
      { ...json, cookie: bob.cookie, origin: room.origin },
      keyBody(otherKeyPem()),
    );
    expect(asBob.status).toBe(403);
    expect(asBob.code).toBe('NOT_YOUR_MERCHANT');
    // Ann's RSA requests still verify with the key she joined with.
    const check = await ann.oauth('v4/payout-check', payoutParams(), 'RSA-SHA256');
    expect(check.status).toBe(200);
    expect(check.body.type).toBe('async-response');
  });

  it('answers a DELETE of a key with a clear 4xx, and restores a trainee’s own key for them (no 500)', async () => {
    const anonymous = await send('DELETE', `/sandbox/%6Derchants/${ann.login}/public-key`);
    expect(anonymous.status).toBe(403);
    // Ann registers a new key with her session, then takes back the one she joined with.
    const replaced = await send(
      'PUT',
      `/sandbox/merchants/${ann.login}/public-key`,
      { ...json, cookie: ann.cookie, origin: room.origin },
      keyBody(otherKeyPem()),
    );
    expect(replaced.status).toBe(200);
    expect((await ann.oauth('v4/payout-check', payoutParams(), 'RSA-SHA256')).status).toBe(403);
    const restored = await send('DELETE', `/sandbox/merchants/${ann.login}/public-key`, {
      cookie: ann.cookie,
      origin: room.origin,
    });
    expect(restored.status).toBe(200);
    expect(JSON.parse(restored.text)).toMatchObject({ login: ann.login, restored: true });
    expect((await ann.oauth('v4/payout-check', payoutParams(), 'RSA-SHA256')).status).toBe(200);
  });

  it('lets the trainer restore a trainee’s key', async () => {
    const token = room.app.classroom.trainerToken();
    const trainer = { cookie: `pc_trainer=${token}`, origin: room.origin };
    const again = await send(
      'PUT',
      `/sandbox/merchants/${ann.login}/public-key`,
      { ...json, cookie: ann.cookie, origin: room.origin },
      keyBody(otherKeyPem()),
    );
    expect(again.status).toBe(200);
    const restored = await send('DELETE', `/sandbox/merchants/${ann.login}/public-key`, trainer);
    expect(restored.status).toBe(200);
    expect((await ann.oauth('v4/payout-check', payoutParams(), 'RSA-SHA256')).status).toBe(200);
  });

  it('closes the demo merchant for every spelling: GET /sandbox/%64emo-merchant', async () => {
    for (const path of ['/sandbox/demo-merchant', '/sandbox/%64emo-merchant', '/%73andbox/demo-merchant']) {
      const r = await send('GET', path, { cookie: ann.cookie });
      expect(r.status, path).toBe(403);
      expect(r.code, path).toBe('CLASSROOM_MODE');
      expect(r.text).not.toMatch(/controlKey|PRIVATE KEY/);
    }
  });

  it('keeps a trainee’s callback inbox theirs: …/%6Cist, %73-…, …/events and DELETE', async () => {
    for (const cookie of [bob.cookie, undefined]) {
      const who: Record<string, string> = cookie ? { cookie } : {};
      const expected = cookie ? 403 : 401;
      for (const path of [
        `/callbacks/${inbox}/%6Cist`,
        `/callbacks/%73${inboxTail}/list`,
        `/callbacks/%73${inboxTail}/events`,
        `/callbacks/${inbox}/%65vents`,
      ]) {
        const r = await send('GET', path, who);
        expect(r.status, `${path} ${cookie ? 'as Bob' : 'anonymous'}`).toBe(expected);
      }
      const del = await send('DELETE', `/callbacks/%73${inboxTail}`, who);
      expect(del.status).toBe(expected);
    }
    const list = await send('GET', `/callbacks/${inbox}/list`, { cookie: ann.cookie });
    expect(list.status).toBe(200);
    expect(JSON.parse(list.text)).toHaveLength(1);
  });

  it('refuses a change without the console’s Origin for every spelling: POST /%63lassroom/answer', async () => {
    const body = JSON.stringify({ exerciseId: 'sale-control', choice: 'x' });
    for (const path of ['/classroom/answer', '/%63lassroom/answer', '/classroom/%61nswer']) {
      const r = await send('POST', path, { ...json, cookie: ann.cookie }, body);
      expect(r.status, path).toBe(403);
      expect(r.code, path).toBe('ORIGIN_REQUIRED');
    }
  });

  it('refuses double encoding, dot segments, ";" parameters and "//" with a 400 that says what to do', async () => {
    for (const path of [
      '/sandbox/%2564emo-merchant',
      '/sandbox/x/../demo-merchant',
      '/sandbox;x=y/demo-merchant',
      '//sandbox/demo-merchant',
      '/callbacks/s%2F4f1c2d9a-ann/list',
    ]) {
      const r = await send('GET', path, { cookie: bob.cookie });
      expect(r.status, path).toBe(400);
      expect(JSON.parse(r.text).error.message).toMatch(/^The path /);
    }
  });
});
