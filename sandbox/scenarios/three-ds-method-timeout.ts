import type { ScenarioBehaviour } from './behaviour.ts';

/** `three-ds-method-timeout`: the method step "never completed within its window" (api-description.md, Limits). */
export const threeDsMethodTimeout: ScenarioBehaviour = {
  afterOperation: ({ x, call, orderId, reply }) => {
    if (call.op.id !== 'TDS_UPLOAD_METHOD_URL_RESULT') return reply;
    x.store.updateOrder(orderId, { tds_comp_ind: 'N' });
    return { ...reply, body: { ...reply.body, 'threeds-comp-ind': 'N' } };
  },
};
