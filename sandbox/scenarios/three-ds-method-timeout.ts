import type { ScenarioBehaviour } from './behaviour.ts';
import { methodTimeoutNote, SANDBOX_NOTE_HEADER } from '../engine/three-ds.ts';

/** `three-ds-method-timeout`: the method step "never completed within its window" (api-description.md, Limits). */
export const threeDsMethodTimeout: ScenarioBehaviour = {
  afterOperation: ({ x, call, orderId, reply }) => {
    if (call.op.id !== 'TDS_UPLOAD_METHOD_URL_RESULT') return reply;
    x.store.orders.update(orderId, { tds_comp_ind: 'N' });
    const body = { ...reply.body, 'threeds-comp-ind': 'N' };
    const sent = String(reply.body['threeds-comp-ind'] ?? 'U');
    // A late upload's note already says why; an N uploaded as N needs none.
    if (reply.headers?.[SANDBOX_NOTE_HEADER] !== undefined || sent === 'N') return { ...reply, body };
    return { ...reply, body, headers: { ...reply.headers, [SANDBOX_NOTE_HEADER]: methodTimeoutNote(sent) } };
  },
};
