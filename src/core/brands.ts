/** Branded strings: values that look alike but must never be mixed. */
declare const brand: unique symbol;
export type Brand<T, B extends string> = T & { readonly [brand]: B };

/** An amount in minor units, as the `control` formula signs it (`10.42` → `1042`). */
export type MinorUnits = Brand<string, 'MinorUnits'>;
/** An OAuth 1.0a signature base string. */
export type BaseString = Brand<string, 'BaseString'>;
/** A PEM text whose kind has been checked. */
export type PemText = Brand<string, 'PemText'>;
