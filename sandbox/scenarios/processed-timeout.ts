import { delayOf } from '../../src/catalog/scenarios.ts';
import type { ApiReply } from '../replies.ts';
import type { ScenarioBehaviour } from './behaviour.ts';

const resets = new WeakSet<ApiReply>();

/** True for an answer that must not be sent: the server resets the connection instead. */
export function isReset(reply: ApiReply): boolean {
  return resets.has(reply);
}

/** `processed-timeout`: the order is committed, the answer held past the client's timeout, then the connection reset. */
export const processedTimeout: ScenarioBehaviour = {
  heldMs: (pick) => delayOf(pick),
  answer: async (reply, pick, sleep) => {
    if (reply.code !== 200) return reply;
    await sleep(delayOf(pick));
    const held = { ...reply };
    resets.add(held);
    return held;
  },
};
