import { InboxClient, newInboxName } from '../../browser/callback-inbox.ts';
import type { InboxEvent } from './flow-run-types.ts';

export type { InboxState } from '../../browser/callback-inbox.ts';

/**
 * A callback inbox of the console's server for one flow page: the gateway's callbacks and the
 * customer's returns (redirect_url points here too) arrive as server-sent events, through the
 * browser's one inbox client.
 */
export class FlowInbox extends InboxClient {
  constructor(deliver: (e: InboxEvent) => void) {
    super(newInboxName('flow-', 20), deliver);
  }
}
