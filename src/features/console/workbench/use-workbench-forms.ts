import { useCallback, useMemo, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import type { Operation } from '../../../catalog/index.ts';
import { emptyDraft, formFromDraft, type Place, type RequestDraft } from '../../../model/index.ts';
import { toFormulaRows } from '../form/form-params.ts';
import type { FieldValues, MetaValues } from '../form/meta.ts';

// The form's checks (zod and its resolver) are not needed to show or sign the first form.
const loadValidation = () => import('../form/form-validation.ts');

/** The workbench's two forms (the operation's fields, and the rest) filled from the opened request. */
export function useWorkbenchForms(op: Operation, draft: RequestDraft | null | undefined, place: Place) {
  const validation = useMemo(() => loadValidation().then((m) => m.formValidation(op)), [op]);
  const resolver = useCallback<Resolver<FieldValues>>(
    async (values, ctx, options) => (await validation).resolver(values, ctx, options),
    [validation],
  );
  // The opened draft, resolved once for this place: the form then holds plain strings.
  const [opened] = useState(() => formFromDraft(op, draft ?? emptyDraft(op.path), place));
  const form = useForm<FieldValues>({ resolver, mode: 'onChange', defaultValues: opened.values });
  const meta = useForm<MetaValues>({
    defaultValues: {
      extras: opened.extras.map((e) => ({ ...e })),
      formula: toFormulaRows(opened.formula),
      scheme: opened.scheme,
      pin: opened.pinned !== undefined,
      nonce: opened.pinned?.nonce ?? '',
      timestamp: opened.pinned?.timestamp ?? '',
    },
  });
  return { opened, form, meta, validation };
}

export type WorkbenchForms = ReturnType<typeof useWorkbenchForms>;
