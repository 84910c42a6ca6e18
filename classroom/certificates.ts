import {
  generateKeyPairSync,
  createPrivateKey,
  createPublicKey,
  randomUUID,
  type KeyObject,
} from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { addProof, didKeyOf } from '../src/node/credential-proof.ts';
import { FILE_MODE } from '../sandbox/secure-files.ts';
import { ClassroomError, type Classroom } from './classroom.ts';
import { readCookie, TRAINEE_COOKIE } from './http.ts';

/** The classroom's signing key for certificates, beside its state (0600; docs/security.md). */
export const CERTIFICATE_KEY_FILE = 'certificate-key.pem';

/** Reads the classroom's Ed25519 key, or makes it on the first start (in memory for `:memory:`). */
export function certificateKey(dataDir: string): KeyObject {
  if (dataDir === ':memory:') return generateKeyPairSync('ed25519').privateKey;
  const file = path.join(dataDir, CERTIFICATE_KEY_FILE);
  try {
    return createPrivateKey(readFileSync(file, 'utf8'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const { privateKey } = generateKeyPairSync('ed25519');
  // 'wx': never overwrite a key another start made meanwhile.
  writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: FILE_MODE, flag: 'wx' });
  return privateKey;
}

export interface Passed {
  id: string;
  title: string;
  assisted: boolean;
}

const URN = 'urn:pay-console:classroom';

/**
 * A trainee's completion certificate: an Open Badges 3.0 credential (a W3C Verifiable Credential,
 * OpenBadgeCredential) naming the trainee by display name and the exercises they passed, each
 * "assisted" or "unassisted"; no login, key, card or request in it.
 */
export function certificateOf(
  trainee: { name: string },
  exercises: ReadonlyArray<{ id: string; title: string }>,
  passed: readonly Passed[],
  issuer: string,
  at: string,
): Record<string, unknown> {
  return {
    '@context': [
      'https://www.w3.org/ns/credentials/v2',
      'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
    ],
    id: `urn:uuid:${randomUUID()}`,
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    issuer: { id: issuer, type: ['Profile'], name: 'pay-console classroom' },
    validFrom: at,
    name: `${trainee.name}: ${passed.length} of ${exercises.length} exercises passed`,
    credentialSubject: {
      type: ['AchievementSubject'],
      identifier: [
        { type: 'IdentityObject', hashed: false, identityHash: trainee.name, identityType: 'name' },
      ],
      achievement: {
        id: `${URN}:achievement:signing`,
        type: ['Achievement'],
        achievementType: 'Certificate',
        name: 'Signing requests of the card-payment gateway',
        description:
          'Exercises of the pay-console classroom, graded by the server from the trainee’s own signed requests to the sandbox.',
        criteria: {
          narrative:
            'An exercise is passed when the sandbox accepted the trainee’s request that meets its goal; "assisted" when the trainee used Skip.',
        },
        resultDescription: exercises.map((e) => ({
          id: `${URN}:exercise:${e.id}`,
          type: ['ResultDescription'],
          name: e.title,
          resultType: 'Status',
        })),
      },
      result: passed.map((p) => ({
        type: ['Result'],
        resultDescription: `${URN}:exercise:${p.id}`,
        status: 'Completed',
        value: p.assisted ? 'assisted' : 'unassisted',
      })),
    },
  };
}

/** Signs certificates with the classroom's key; its issuer is the key's did:key. */
export class Certificates {
  readonly issuer: string;

  constructor(
    private readonly key: KeyObject,
    private readonly classroom: Classroom,
  ) {
    this.issuer = didKeyOf(createPublicKey(key));
  }

  /** The signed certificate of a trainee (by id), from the trainer's table as it stands. */
  of(traineeId: string): { name: string; credential: Record<string, unknown> } {
    const s = this.classroom.trainerSnapshot();
    const t = s.trainees.find((x) => x.id === traineeId);
    if (!t) throw new ClassroomError(404, 'TRAINEE_UNKNOWN', 'No such trainee: reload the trainer page.');
    const assisted = new Set(t.assisted ?? []);
    const exercises = this.classroom.exercises.map((e) => ({ id: e.id, title: e.title }));
    const passed = t.results
      .filter((r) => r.state === 'done')
      .map((r) => ({
        id: r.id,
        title: exercises.find((e) => e.id === r.id)?.title ?? r.id,
        assisted: assisted.has(r.id),
      }));
    const at = new Date(s.at).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const unsigned = certificateOf(t, exercises, passed, this.issuer, at);
    return { name: t.name, credential: addProof(unsigned, this.key, this.issuer, at) };
  }
}

function send(reply: FastifyReply, name: string, credential: unknown) {
  const file = `certificate-${name.replace(/[^\p{L}\p{N}_-]+/gu, '-').slice(0, 40)}.json`;
  return reply
    .type('application/json; charset=utf-8')
    .header('content-disposition', `attachment; filename="${file.replace(/[^\x20-\x7e]/g, '_')}"`)
    .header('cache-control', 'no-store')
    .send(JSON.stringify(credential, null, 2));
}

/** The certificate downloads (under /classroom): a trainee's own, and the trainer's for anyone. */
export function certificateRoutes(
  app: FastifyInstance,
  certificates: Certificates,
  classroom: Classroom,
): void {
  const TRAINER = { config: { access: 'trainer' } } as const;
  const TRAINEE = { config: { access: 'trainee' } } as const;

  app.get('/certificate', TRAINEE, async (request, reply) => {
    const t = classroom.traineeBySession(readCookie(request.headers.cookie, TRAINEE_COOKIE));
    if (!t)
      throw new ClassroomError(401, 'JOIN_FIRST', 'You have not joined this classroom: open the join page.');
    const c = certificates.of(t.id);
    return send(reply, c.name, c.credential);
  });

  app.get<{ Params: { traineeId: string } }>(
    '/trainer/certificates/:traineeId',
    TRAINER,
    async (request, reply) => {
      const c = certificates.of(request.params.traineeId);
      return send(reply, c.name, c.credential);
    },
  );
}
