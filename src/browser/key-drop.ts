import { Signal } from '../core/store.ts';

/**
 * "The page has dropped every private key it imported" (the vault was locked): whoever keeps a
 * copy of them, the RSA signing worker, drops its copies too.
 */
const dropped = new Signal();

export const onKeysDropped = dropped.subscribe;
export const dropKeys = dropped.fire;
