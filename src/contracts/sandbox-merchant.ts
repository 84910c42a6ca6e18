/**
 * `POST /sandbox/merchants` on the wire: a throwaway merchant of the local sandbox, created for a
 * capsule's replay (loopback only, like the sandbox's other admin routes). The sandbox answers with
 * the new merchant's own credentials; the merchant whose incident is replayed is never involved.
 */
import { z } from 'zod/mini';

/** Why the merchant is made; it names its login (`replay-<endpoint id>`). */
export const ThrowawayMerchantRequestSchema = z.strictObject({
  purpose: z.enum(['replay']),
});
export type ThrowawayMerchantRequest = z.infer<typeof ThrowawayMerchantRequestSchema>;

/** The new merchant: its login, ids and keys (its key pair is made by the sandbox for it alone). */
export const ThrowawayMerchantSchema = z.object({
  login: z.string().check(z.minLength(1)),
  controlKey: z.string().check(z.minLength(8)),
  endpointId: z.string().check(z.regex(/^\d{1,19}$/)),
  endpointGroupId: z.string().check(z.regex(/^\d{1,19}$/)),
  privateKeyPkcs8Pem: z.string().check(z.minLength(1)),
  publicKeyPem: z.string().check(z.minLength(1)),
});
export type ThrowawayMerchant = z.infer<typeof ThrowawayMerchantSchema>;
