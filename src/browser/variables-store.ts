/**
 * The variables of each profile (an environment is a profile plus its variables): plain values by
 * name, kept in this browser's localStorage per profile id. Never a secret: the control key and the
 * private key stay the profile's (in memory, or in the vault on opt-in); a name that looks like a
 * secret is refused here. Read with `subscribe` / `getSnapshot`.
 */
import { z } from 'zod/mini';
import { isSecretName } from '../catalog/index.ts';
import { Subscribable } from '../core/store.ts';
import { VARIABLE_NAME } from '../model/variables.ts';

export const VARIABLES_KEY = 'pay-console.variables';

const StoredSchema = z.record(z.string(), z.record(z.string(), z.string().check(z.maxLength(65_536))));
export type StoredVariables = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** Why a variable cannot be kept, in words; undefined when it can. */
export function variableRefusal(name: string): string | undefined {
  if (!VARIABLE_NAME.test(name)) return 'A name is letters, digits, _ . $ -.';
  if (isSecretName(name) || /token/i.test(name)) return 'Secrets are not variables: they stay the profile’s.';
  return undefined;
}

function read(): StoredVariables {
  try {
    const r = StoredSchema.safeParse(JSON.parse(localStorage.getItem(VARIABLES_KEY) ?? '{}'));
    return r.success ? r.data : {};
  } catch {
    return {};
  }
}

// A Subscribable rather than a Store: the snapshot is read from localStorage on first use.
class VariablesStore extends Subscribable {
  private snap: StoredVariables | null = null;

  protected override onFirstListener(): void {
    window.addEventListener('storage', this.onStorage);
  }

  protected override onLastListener(): void {
    window.removeEventListener('storage', this.onStorage);
  }

  getSnapshot = (): StoredVariables => (this.snap ??= read());

  private readonly onStorage = (e: StorageEvent) => {
    if (e.key !== VARIABLES_KEY) return;
    this.snap = read();
    this.notify();
  };

  private write(next: StoredVariables): void {
    this.snap = next;
    try {
      localStorage.setItem(VARIABLES_KEY, JSON.stringify(next));
    } catch {
      // Full or refused: it holds for this page.
    }
    this.notify();
  }

  /** Sets a variable of a profile; returns why not when it cannot be kept. */
  set(profileId: string, name: string, value: string): string | undefined {
    const refusal = variableRefusal(name);
    if (refusal) return refusal;
    const all = this.getSnapshot();
    this.write({ ...all, [profileId]: { ...all[profileId], [name]: value } });
    return undefined;
  }

  remove(profileId: string, name: string): void {
    const all = this.getSnapshot();
    const { [name]: _gone, ...rest } = all[profileId] ?? {};
    this.write({ ...all, [profileId]: rest });
  }
}

export const variablesStore = new VariablesStore();
