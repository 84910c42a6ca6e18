import { errorReply } from '../replies.ts';
import type { ScenarioBehaviour } from './behaviour.ts';

/** `server-error-after-commit`: the order is committed, the client gets a 500 instead of the acknowledgement. */
export const serverErrorAfterCommit: ScenarioBehaviour = {
  answer: async (reply) =>
    reply.code !== 200
      ? reply
      : errorReply(
          500,
          'The gateway failed after committing the order (scenario server-error-after-commit): query status by client_orderid before charging again.',
          'INTERNAL',
        ),
};
