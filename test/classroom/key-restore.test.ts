import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payoutParams, startRoom, Trainee, type Room } from './support.ts';

/*
 * The trainer's "Restore the key <trainee> joined with" after the trainee made a new key (issue 32
 * §4): the trainer is told which key the trainee uses now and when it was made, and the refusal the
 * restore causes (the trainee's browser signs with the new key) is not charged as their mistake.
 */

let room: Room;
beforeAll(async () => {
  room = await startRoom();
});
afterAll(async () => {
  await room?.close();
});

function trainer(method: 'GET' | 'POST', url: string, payload?: unknown) {
  return room.app.inject({
    method,
    url,
    headers: {
      host: `127.0.0.1:${room.port}`,
      origin: room.origin,
      cookie: `pc_trainer=${room.app.classroom.trainerToken()}`,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

describe('the trainer restores a trainee’s joined key', () => {
  it('names the key in use and when it was made, and does not charge the refusal it causes', async () => {
    const t = await new Trainee(room, 'restore-ann').join();
    const joined = (await trainer('GET', `/classroom/trainer/key?traineeId=${t.id}`)).json<{
      current: { keyFingerprint: string; registeredAt: number | null };
      joined: { keyFingerprint: string };
      joinedKeyInUse: boolean;
    }>();
    expect(joined.joinedKeyInUse).toBe(true);
    expect(joined.current.registeredAt).toBeNull();

    // The trainee makes a new key pair and registers its public key (as the exercises page does).
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    room.clock.advance(60_000);
    const madeAt = room.clock.now;
    const put = await room.app.inject({
      method: 'PUT',
      url: `/sandbox/merchants/${t.login}/public-key`,
      headers: {
        host: `127.0.0.1:${room.port}`,
        origin: room.origin,
        cookie: t.cookie,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ publicKeyPem: pem }),
    });
    expect(put.statusCode, put.body).toBe(200);
    const newFingerprint = put.json<{ keyFingerprint: string }>().keyFingerprint;
    const ok = await t.oauth('v4/payout-check', payoutParams(), 'RSA-SHA256', {
      privateKey: pair.privateKey,
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);

    // What the trainer's dialog reads: the key in use now (not the joined one) and when it was made.
    const now = (await trainer('GET', `/classroom/trainer/key?traineeId=${t.id}`)).json<{
      current: { keyFingerprint: string; registeredAt: number | null };
      joined: { keyFingerprint: string };
      joinedKeyInUse: boolean;
    }>();
    expect(now.joinedKeyInUse).toBe(false);
    expect(now.current.keyFingerprint).toBe(newFingerprint);
    expect(now.current.registeredAt).toBe(madeAt);
    expect(now.joined.keyFingerprint).toBe(joined.joined.keyFingerprint);

    const restored = await trainer('POST', '/classroom/trainer/restore-key', { traineeId: t.id });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({
      restored: true,
      joinedKeyInUse: true,
      current: { keyFingerprint: joined.joined.keyFingerprint },
    });

    // The trainee's browser still signs with the new key: refused, but not their mistake.
    const before = room.app.classroom.trainerSnapshot();
    const attemptsBefore = before.trainees
      .find((x) => x.id === t.id)!
      .results.find((r) => r.id === 'payout-rsa')!.attempts;
    const refused = await t.oauth('v4/payout-check', payoutParams(), 'RSA-SHA256', {
      privateKey: pair.privateKey,
    });
    expect(refused.body['error-message']).toMatch(/INVALID_SIGNATURE|signature/i);
    await room.app.classroom.settled();
    const after = room.app.classroom.trainerSnapshot();
    const row = after.trainees.find((x) => x.id === t.id)!;
    expect(row.lastRefused).toMatchObject({
      errorCode: 'INVALID_SIGNATURE',
      mistakeId: null,
      cause: 'trainer-restore',
    });
    expect(after.mistakes.find((m) => m.mistakeId === 'wrong-key')?.count ?? 0).toBe(
      before.mistakes.find((m) => m.mistakeId === 'wrong-key')?.count ?? 0,
    );
    expect(row.results.find((r) => r.id === 'payout-rsa')!.attempts).toBe(attemptsBefore);

    // A request signed with some other key is still the trainee's mistake.
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    await t.oauth('v4/payout-check', payoutParams(), 'RSA-SHA256', { privateKey: stranger });
    await room.app.classroom.settled();
    const last = room.app.classroom.trainerSnapshot().trainees.find((x) => x.id === t.id)!.lastRefused;
    expect(last?.cause).toBeNull();
    expect(last?.mistakeId).not.toBeNull();

    // A second restore has nothing to do.
    const again = await trainer('POST', '/classroom/trainer/restore-key', { traineeId: t.id });
    expect(again.json()).toMatchObject({ restored: false });
  });

  it('is the trainer’s alone', async () => {
    const t = await new Trainee(room, 'restore-bob').join();
    const res = await room.app.inject({
      method: 'POST',
      url: '/classroom/trainer/restore-key',
      headers: {
        host: `127.0.0.1:${room.port}`,
        origin: room.origin,
        cookie: t.cookie,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ traineeId: t.id }),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: { code: 'TRAINER_ONLY' } });
  });
});
