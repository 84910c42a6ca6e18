/**
 * "The page has dropped every private key it imported" (the vault was locked): whoever keeps a
 * copy of them, the RSA signing worker, drops its copies too.
 */
const listeners = new Set<() => void>();

export function onKeysDropped(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function dropKeys(): void {
  for (const l of listeners) l();
}
