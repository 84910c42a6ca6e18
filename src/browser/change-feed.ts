import { Signal } from '../core/store.ts';

/**
 * "Something changed" for data kept in this browser: listeners in this tab are called at once,
 * other tabs hear it over a BroadcastChannel of the given name.
 */
export function changeFeed(channelName: string): {
  changed(): void;
  subscribe(listener: () => void): () => void;
} {
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(channelName);
  const here = new Signal();
  return {
    changed() {
      here.fire();
      channel?.postMessage('changed');
    },
    subscribe(listener) {
      const off = here.subscribe(listener);
      const fromOtherTab = () => listener();
      channel?.addEventListener('message', fromOtherTab);
      return () => {
        off();
        channel?.removeEventListener('message', fromOtherTab);
      };
    },
  };
}
