/**
 * Environments: where a collection or a request runs (the local sandbox, the vendor's sandbox,
 * production, or the user's own) and the values it gives variables. An environment names its
 * target and merchant (base URL, login, endpoint and group ids) and carries plain variables; its
 * secrets (control key, private key) are never part of it: the browser keeps them as a profile's
 * (the environment is the profile plus variables), the CLI reads them from environment variables
 * or files. So an environment can be exported, shared and stored in history without a secret.
 */
import { z } from 'zod/mini';
import { TEST_CARD } from '../catalog/test-cards.ts';
import { VARIABLE_NAME, type VariableSource } from './variables.ts';

export const ENVIRONMENT_KINDS = ['local-sandbox', 'vendor-sandbox', 'production', 'custom'] as const;
export type EnvironmentKind = (typeof ENVIRONMENT_KINDS)[number];

const ID = z.string().check(z.regex(/^\d{1,19}$/, 'an endpoint id is a whole number, e.g. 1111'));
const VARIABLES = z.record(z.string().check(z.regex(VARIABLE_NAME)), z.string().check(z.maxLength(65_536)));

export const EnvironmentSchema = z.strictObject({
  name: z.string().check(z.minLength(1), z.maxLength(100)),
  kind: z.enum(ENVIRONMENT_KINDS),
  /** The gateway's base URL (`…/paynet`); the local sandbox's is known when it starts. */
  baseUrl: z.optional(
    z.string().check(z.regex(/^https?:\/\/\S+$/, 'a base URL starts with http:// or https://')),
  ),
  login: z.optional(z.string().check(z.maxLength(200))),
  endpointId: z.optional(ID),
  groupId: z.optional(ID),
  variables: z.optional(VARIABLES),
});
export type Environment = z.infer<typeof EnvironmentSchema>;

/** A file of environments (`paysign run --env-file`): names and plain values, never a secret. */
export const EnvironmentsFileSchema = z.strictObject({
  environments: z.array(EnvironmentSchema).check(z.maxLength(100)),
});

/** The local sandbox, ready without a file: `paysign run --env local`. */
export const LOCAL_SANDBOX_ENVIRONMENT: Environment = { name: 'local', kind: 'local-sandbox' };

/**
 * The variables every environment defines from its own fields (`{{base_url}}`, `{{login}}`,
 * `{{endpoint_id}}`, `{{group_id}}`), then its own; the local sandbox adds its test card
 * (`{{card_number}}`, `{{cvv}}` approving, `{{expire_month}}`, `{{expire_year}}` in the future).
 */
export function environmentSource(
  env: Environment,
  resolved: { baseUrl: string; login: string; year: number },
): VariableSource {
  const values: Record<string, string> = {
    ...(env.kind === 'local-sandbox'
      ? {
          card_number: TEST_CARD.number,
          cvv: '123',
          expire_month: '12',
          expire_year: String(resolved.year + 3),
        }
      : {}),
    base_url: resolved.baseUrl,
    login: resolved.login,
    ...(env.endpointId ? { endpoint_id: env.endpointId } : {}),
    ...(env.groupId ? { group_id: env.groupId } : {}),
    ...env.variables,
  };
  return { kind: 'environment', name: env.name, values };
}
