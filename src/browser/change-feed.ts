/**
 * "Something changed" for data kept in this browser: listeners in this tab are called at once,
 * other tabs hear it over a BroadcastChannel of the given name.
 */
export function changeFeed(channelName: string): {
  changed(): void;
  subscribe(listener: () => void): () => void;
} {
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(channelName);
  const listeners = new Set<() => void>();
  return {
    changed() {
      for (const l of listeners) l();
      channel?.postMessage('changed');
    },
    subscribe(listener) {
      listeners.add(listener);
      const fromOtherTab = () => listener();
      channel?.addEventListener('message', fromOtherTab);
      return () => {
        listeners.delete(listener);
        channel?.removeEventListener('message', fromOtherTab);
      };
    },
  };
}
