import { execFileSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paysign } from '../cli/run-cli.ts';
import { cardParams, startRoom, Trainee, type Room } from './support.ts';

/*
 * The signed completion certificate (issue 32 §3): an Open Badges 3.0 credential with an
 * eddsa-jcs-2022 Data Integrity proof by the classroom's Ed25519 key (0600 beside its state),
 * verified offline by `paysign certificate verify` and, independently, by Python's JSON and the
 * `cryptography` package; a tampered copy fails both.
 */

let room: Room;
let ann: Trainee;
beforeAll(async () => {
  room = await startRoom();
  ann = await new Trainee(room, 'cert-ann').join();
  const ack = await ann.control('v2/sale', cardParams());
  room.clock.advance(1500);
  await ann.status(ack.body);
  expect(await ann.state('sale-control')).toBe('done');
  const skip = await fetch(`${room.origin}/classroom/skip`, {
    method: 'POST',
    headers: { origin: room.origin, cookie: ann.cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ exerciseId: 'payout-hmac' }),
  });
  expect(skip.status).toBe(200);
});
afterAll(async () => {
  await room?.close();
});

const get = (url: string, cookie: string) => fetch(`${room.origin}${url}`, { headers: { cookie } });
const trainer = () => `pc_trainer=${room.app.classroom.trainerToken()}`;

/** An eddsa-jcs-2022 verifier of its own: Python's sorted JSON (JCS for this data), SHA-256, Ed25519. */
const PYTHON_VERIFY = `
import hashlib, json, sys
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
A = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
def b58(s):
    n = 0
    for c in s: n = n * 58 + A.index(c)
    raw = n.to_bytes((n.bit_length() + 7) // 8, 'big')
    return b'\\0' * (len(s) - len(s.lstrip('1'))) + raw
doc = json.load(open(sys.argv[1], encoding='utf-8'))
proof = doc.pop('proof')
value = proof.pop('proofValue')
proof['@context'] = doc['@context']
canon = lambda o: json.dumps(o, sort_keys=True, separators=(',', ':'), ensure_ascii=False).encode('utf-8')
data = hashlib.sha256(canon(proof)).digest() + hashlib.sha256(canon(doc)).digest()
key = b58(doc['issuer']['id'][len('did:key:z'):])
assert key[:2] == b'\\xed\\x01' and proof['verificationMethod'].startswith(doc['issuer']['id'] + '#')
try:
    Ed25519PublicKey.from_public_bytes(key[2:]).verify(b58(value[1:]), data)
    print('valid')
except Exception:
    print('invalid')
`;

interface Cert {
  '@context': string[];
  type: string[];
  issuer: { id: string };
  credentialSubject: { type: string[]; result: unknown[] };
  proof: Record<string, string>;
}

function python(file: string): string {
  return execFileSync('python3', ['-c', PYTHON_VERIFY, file], { encoding: 'utf8' }).trim();
}

describe('completion certificates', () => {
  it('are Open Badges 3.0 credentials of the exercises passed, assisted or not, with no secret', async () => {
    const res = await get('/classroom/certificate', ann.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="certificate-cert-ann.json"');
    const text = await res.text();
    const c = JSON.parse(text) as Cert;
    expect(c['@context']).toEqual([
      'https://www.w3.org/ns/credentials/v2',
      'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
    ]);
    expect(c.type).toEqual(['VerifiableCredential', 'OpenBadgeCredential']);
    expect(c.issuer.id).toMatch(/^did:key:z6Mk/);
    expect(c.credentialSubject.type).toEqual(['AchievementSubject']);
    expect(c.credentialSubject.result).toEqual([
      expect.objectContaining({
        resultDescription: 'urn:pay-console:classroom:exercise:sale-control',
        value: 'unassisted',
      }),
      expect.objectContaining({
        resultDescription: 'urn:pay-console:classroom:exercise:payout-hmac',
        value: 'assisted',
      }),
    ]);
    expect(c.proof).toMatchObject({
      type: 'DataIntegrityProof',
      cryptosuite: 'eddsa-jcs-2022',
      proofPurpose: 'assertionMethod',
      verificationMethod: `${c.issuer.id}#${c.issuer.id.slice('did:key:'.length)}`,
    });
    for (const secret of [
      ann.controlKey,
      ann.login,
      ann.cookie.split('=')[1]!,
      room.app.classroom.trainerToken(),
    ])
      expect(text).not.toContain(secret);
    expect(text).not.toMatch(/4444|PRIVATE KEY|cvv|credit_card/i);
  });

  it('verify offline with paysign and with an independent verifier; a tampered copy fails both', async () => {
    const res = await get(`/classroom/trainer/certificates/${ann.id}`, trainer());
    expect(res.status).toBe(200);
    const text = await res.text();
    const good = path.join(room.dataDir, 'good.json');
    writeFileSync(good, text);
    const ok = await paysign(['certificate', 'verify', good]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^OK: signed by did:key:z6Mk/);
    expect(ok.stdout).toContain('An approved sale with a correct control (unassisted)');
    expect(python(good)).toBe('valid');

    // "assisted" turned into "unassisted": the signature no longer covers the file.
    const bad = path.join(room.dataDir, 'bad.json');
    writeFileSync(bad, text.replace('"assisted"', '"unassisted"'));
    expect(text.replace('"assisted"', '"unassisted"')).not.toBe(text);
    const refused = await paysign(['certificate', 'verify', bad]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/^MISMATCH: the signature does not match/);
    expect(python(bad)).toBe('invalid');

    const notJson = path.join(room.dataDir, 'not.json');
    writeFileSync(notJson, 'hello');
    expect((await paysign(['certificate', 'verify', notJson])).code).toBe(2);
  });

  it('are signed with a key kept 0600 beside the classroom’s state, the same after a restart', async () => {
    const file = path.join(room.dataDir, 'certificate-key.pem');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const issuer = (
      (await (await get('/classroom/certificate', ann.cookie)).json()) as { issuer: { id: string } }
    ).issuer.id;
    await room.close();
    room = await startRoom({ dataDir: room.dataDir, clock: room.clock });
    const again = await (await get(`/classroom/trainer/certificates/${ann.id}`, trainer())).json();
    expect((again as { issuer: { id: string } }).issuer.id).toBe(issuer);
  });

  it('are each trainee’s own: the trainer route refuses a trainee, an unknown id is named', async () => {
    expect((await get(`/classroom/trainer/certificates/${ann.id}`, ann.cookie)).status).toBe(403);
    expect((await get('/classroom/certificate', '')).status).toBe(401);
    const unknown = await get('/classroom/trainer/certificates/nobody', trainer());
    expect(unknown.status).toBe(404);
  });
});
