import type { FlowDefinition, FlowEnv, Template, Vars } from './flow-types.ts';

const PLACEHOLDER = /\{([A-Za-z0-9_.-]+)\}/g;

/** Fills `{name}` placeholders from the variables; names that have no value yet are reported. */
export function fillTemplate(
  template: Template,
  vars: Vars,
): { values: Record<string, string>; missing: string[] } {
  const missing = new Set<string>();
  const values: Record<string, string> = {};
  for (const [name, raw] of Object.entries(template)) {
    values[name] = raw.replace(PLACEHOLDER, (_m, key: string) => {
      const v = vars[key];
      if (v === undefined || v === '') {
        missing.add(key);
        return '';
      }
      return v;
    });
  }
  return { values, missing: [...missing] };
}

/** The variables every run starts with: the environment, the browser fields and the flow's inputs. */
export function initialVars(
  flow: FlowDefinition,
  env: FlowEnv,
  inputs: Record<string, string>,
  freshOrderId: () => string,
): Vars {
  const vars: Vars = envVars(env);
  for (const input of flow.inputs) vars[input.name] = inputs[input.name] ?? input.value;
  for (const id of flow.freshIds) vars[id] = freshOrderId();
  return vars;
}

export function envVars(env: FlowEnv): Vars {
  const vars: Vars = {
    'env.login': env.login,
    'env.callbackUrl': env.callbackUrl,
    'env.returnUrl': env.returnUrl,
    'env.expireYear': env.expireYear,
  };
  for (const [k, v] of Object.entries(env.browser)) vars[`browser.${k}`] = v;
  return vars;
}

/** An answer's field as text: a non-empty string or a number; anything else is no value. */
export function textOf(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
}
