import type { ScenarioBehaviour } from './behaviour.ts';
import { chargebacksOf } from './chargebacks.ts';

/** `chargeback`: once the order's money moved, a chargeback falls due (chargebacks.ts makes it). */
export const chargeback: ScenarioBehaviour = {
  afterOperation: ({ x, orderId, reply }, pick) => {
    const order = x.store.orders.get(orderId);
    const latest = x.store.requests.of(orderId).at(-1);
    if (order && latest) chargebacksOf(x.store.db).noteOperation(order, latest, pick);
    return reply;
  },
};
