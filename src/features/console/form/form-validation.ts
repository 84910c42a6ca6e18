import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import type { Operation } from '../../../catalog/index.ts';
import { requestSchema } from '../../../catalog/request-schema.ts';
import type { FieldValues } from './meta.ts';
import { hasVariable } from '../../../model/variables.ts';

/**
 * The form's checks: the catalog's zod schema behind react-hook-form's resolver. Loaded after the
 * first render (workbench.tsx): the first signature needs none of it.
 */
export function formValidation(op: Operation) {
  const schema = requestSchema(op);
  // The catalog schema's input is `unknown` per key (catchall); the form holds strings only.
  const resolve = zodResolver(schema) as unknown as Resolver<FieldValues>;
  return {
    // A field holding a `{{variable}}` is checked once resolved (the signing pane names what has
    // no value, and Send refuses it), not as typed.
    resolver: (async (values, context, options) => {
      const r = await resolve(values, context, options);
      const errors = Object.fromEntries(
        Object.entries(r.errors).filter(([name]) => !hasVariable(String(values[name] ?? ''))),
      );
      return Object.keys(errors).length === 0 && Object.keys(r.errors).length > 0
        ? { values, errors: {} }
        : { ...r, errors };
    }) as Resolver<FieldValues>,
    /** The names of the fields the schema refuses, in the schema's order. */
    invalidNames(values: FieldValues): string[] {
      const parsed = schema.safeParse(values);
      return parsed.success
        ? []
        : [...new Set(parsed.error.issues.map((i) => String(i.path[0] ?? '')))].filter(
            (name) => !hasVariable(String(values[name] ?? '')),
          );
    },
  };
}
