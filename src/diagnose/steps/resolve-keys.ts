import type { Scheme } from '../../core/request/operation-spec.ts';
import { importSigningKey, importVerifyingKey } from '../../core/keys/key-containers.ts';
import type { DiagnoseInput } from '../diagnosis-types.ts';
import { inspectKeyText, type KeyTextInspection } from '../inspect-key-text.ts';
import type { AlternativeKey, RecipeSecrets } from '../recipe.ts';
import type { Finding } from '../structural-checks.ts';

const PAIR_PROBE = 'pay-console key pair check';

export interface ResolvedKeys {
  secrets: RecipeSecrets;
  keyInspection?: KeyTextInspection;
  /** A pasted private key that is not the pair of the given public key. */
  keyFindings: Finding[];
  notes: string[];
}

/**
 * Step 2: the keys to check with. A pasted private key text is inspected (never shown), checked
 * against the public key given, and its public half used when no public key is given; a private
 * key that is not the pair becomes one more alternative key to try.
 */
export async function resolveKeys(
  input: DiagnoseInput,
  scheme: Scheme,
  login: string | undefined,
): Promise<ResolvedKeys> {
  const { crypto } = input;
  const notes: string[] = [];
  const alternatives: AlternativeKey[] = [...(input.alternativeKeys ?? [])];
  let publicKey = input.publicKey;
  let privateKey: CryptoKey | undefined = input.privateKey;
  let keyInspection: KeyTextInspection | undefined;
  const keyFindings: Finding[] = [];
  if (input.privateKeyText !== undefined) {
    keyInspection = inspectKeyText(input.privateKeyText, input.keyConsumer);
    let pastedPrivate: CryptoKey | undefined;
    let pastedPublic: CryptoKey | undefined;
    try {
      pastedPrivate = (await importSigningKey(input.privateKeyText, crypto)).key;
    } catch {
      pastedPrivate = undefined;
    }
    try {
      pastedPublic = (await importVerifyingKey(input.privateKeyText, crypto)).key;
    } catch {
      pastedPublic = undefined;
    }
    if (pastedPrivate && publicKey) {
      const probe = await crypto.rsaSha256SignBase64(pastedPrivate, PAIR_PROBE);
      if (await crypto.rsaSha256Verify(publicKey, probe, PAIR_PROBE)) privateKey = pastedPrivate;
      else {
        keyFindings.push({
          id: 'key-pair-mismatch',
          severity: 'error',
          mistakeId: 'wrong-key',
          message:
            'The private key pasted is not the pair of the public key given: requests it signs cannot be verified with that public key.',
        });
        alternatives.push({ label: 'the private key pasted', privateKey: pastedPrivate });
      }
    } else if (!publicKey && pastedPublic) {
      publicKey = pastedPublic;
      privateKey = pastedPrivate;
      if (scheme === 'oauth-rsa-sha256')
        notes.push('The signature is checked with the public half of the pasted key.');
    }
  }
  const secrets: RecipeSecrets = {
    login: login ?? '',
    ...(input.controlKey !== undefined ? { controlKey: input.controlKey } : {}),
    ...(publicKey ? { publicKey } : {}),
    ...(privateKey ? { privateKey } : {}),
    alternatives,
  };
  return { secrets, ...(keyInspection ? { keyInspection } : {}), keyFindings, notes };
}
