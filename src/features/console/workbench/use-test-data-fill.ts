import { errorText } from '../../../core/errors.ts';
import { useCallback } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { Operation } from '../../../catalog/index.ts';
import { takesEarlierIds } from '../follow-ups/takes-earlier-ids.ts';
import type { FieldValues } from '../form/meta.ts';
import type { WorkbenchSession } from './workbench-session.ts';

/** "Fill with test data": the session's values, and the ids or token some operations need first. */
export function useTestDataFill(
  op: Operation,
  form: UseFormReturn<FieldValues>,
  wbSession: WorkbenchSession,
): (cvv: string) => void {
  return useCallback(
    (cvv: string) => {
      const { values, now, fill } = wbSession.testData(cvv);
      const apply = (ids: Record<string, string>) => {
        for (const f of op.fields) {
          if (f.fromProfile) continue;
          form.setValue(f.name, ids[f.name] ?? values[f.name] ?? '', { shouldDirty: true });
        }
        void form.trigger();
        wbSession.showInvalid(null);
      };
      const latest = () => wbSession.isLatestFill(fill);
      // v4/sale: a token from the local sandbox's tokenizer; any other target's comes from the
      // merchant's payment page (the note says so). Loaded on use: not on the first load.
      const fillHostedFieldsToken = () => {
        const ctx = wbSession.where().context;
        const env = wbSession.signingEnv();
        void import('../form/hosted-fields-fill.ts')
          .then(async (m) => {
            if (!ctx || !env || ctx.target.kind !== 'local') {
              apply({ hosted_fields_token: '' });
              return wbSession.showInvalid([m.REAL_TOKEN_NOTE]);
            }
            const token = await m.sandboxHostedFieldsToken(ctx.target, env, cvv, new Date(now));
            if (latest()) apply({ hosted_fields_token: token });
          })
          .catch((e: unknown) => latest() && wbSession.showInvalid([errorText(e)]));
      };
      if (op.path === 'v4/sale') return fillHostedFieldsToken();
      if (!takesEarlierIds(op)) return apply({});
      // Ids of this session's latest fitting answer, instead of examples that name no real order.
      void import('../follow-ups/earlier-ids.tsx').then(
        (m) => latest() && apply(m.bestEarlierIds(op)),
        () => latest() && apply({}),
      );
    },
    [op, form, wbSession],
  );
}
