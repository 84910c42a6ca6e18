import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import type { Operation } from '../../../catalog/index.ts';
import { requestSchema } from '../../../catalog/request-schema.ts';
import type { FieldValues } from './meta.ts';

/**
 * The form's checks: the catalog's zod schema behind react-hook-form's resolver. Loaded after the
 * first render (workbench.tsx): the first signature needs none of it.
 */
export function formValidation(op: Operation) {
  const schema = requestSchema(op);
  return {
    // The catalog schema's input is `unknown` per key (catchall); the form holds strings only.
    resolver: zodResolver(schema) as unknown as Resolver<FieldValues>,
    /** The names of the fields the schema refuses, in the schema's order. */
    invalidNames(values: FieldValues): string[] {
      const parsed = schema.safeParse(values);
      return parsed.success ? [] : [...new Set(parsed.error.issues.map((i) => String(i.path[0] ?? '')))];
    },
  };
}
