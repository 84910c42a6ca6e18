import type { CryptoPort, GeneratedKeyPair } from '../../core/index.ts';
import { generateKeyPair } from '../../core/keys/key-containers.ts';
import { loadClassroomCredentials, saveClassroomCredentials } from '../../browser/classroom-credentials.ts';
import { PublicKeyAnswerSchema, sendJson } from './classroom-api.ts';

/** A trainee's RSA key pair, made in this browser: at joining, and again when they need a new one. */
export function makeTraineeKeyPair(crypto: CryptoPort): Promise<GeneratedKeyPair> {
  return generateKeyPair(2048, crypto);
}

/**
 * A new key for the trainee's own merchant: a new pair made here, its public key registered with
 * the sandbox (PUT, with this browser's session), and its private key kept where the classroom
 * credentials are. The credentials must be in this browser first: a key registered without its
 * private half kept would lock the trainee out.
 */
export async function replaceTraineeKey(
  login: string,
  crypto: CryptoPort,
  onStep: (step: 'keys' | 'registering') => void = () => undefined,
): Promise<{ keyFingerprint: string; keyBits: number }> {
  const kept = await loadClassroomCredentials();
  if (!kept || kept.login !== login)
    throw new Error(
      `This browser holds no credentials of ${login} (its control key came only at joining): ask the trainer to restore the key you joined with, or leave the classroom and join again.`,
    );
  onStep('keys');
  const keys = await makeTraineeKeyPair(crypto);
  onStep('registering');
  const answer = await sendJson(
    'PUT',
    `/sandbox/merchants/${encodeURIComponent(login)}/public-key`,
    { publicKeyPem: keys.spkiPem },
    PublicKeyAnswerSchema,
    'registering your new public key',
  );
  await saveClassroomCredentials({ ...kept, privateKeyPkcs8Pem: keys.pkcs8Pem });
  return { keyFingerprint: answer.keyFingerprint, keyBits: answer.keyBits };
}
