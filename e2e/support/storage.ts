import type { Page } from '@playwright/test';

/** Everything the page can persist: both web storages, cookies, Cache Storage and every IndexedDB store (keys and values). */
export async function dumpStorage(page: Page): Promise<{ text: string; stores: string[] }> {
  return page.evaluate(async () => {
    const bytesToText = (b: Uint8Array) => Array.from(b, (c) => String.fromCharCode(c)).join('');
    const replacer = (_k: string, v: unknown) =>
      v instanceof ArrayBuffer
        ? bytesToText(new Uint8Array(v))
        : ArrayBuffer.isView(v)
          ? bytesToText(new Uint8Array(v.buffer))
          : v;
    const parts: string[] = [`cookie=${document.cookie}`];
    const stores: string[] = [];
    for (const [name, s] of [
      ['localStorage', localStorage],
      ['sessionStorage', sessionStorage],
    ] as const) {
      for (let i = 0; i < s.length; i++) {
        const k = s.key(i)!;
        parts.push(`${name}:${k}=${s.getItem(k)}`);
      }
    }
    if ('caches' in globalThis) {
      for (const c of await caches.keys()) parts.push(`cache:${c}`);
    }
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(info.name!);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      for (const storeName of Array.from(db.objectStoreNames)) {
        const store = db.transaction(storeName, 'readonly').objectStore(storeName);
        const read = <T>(req: IDBRequest<T>) =>
          new Promise<T>((resolve, reject) => {
            req.onsuccess = () => resolve(req.result);
            req.onerror = () => reject(req.error);
          });
        const [keys, values] = await Promise.all([read(store.getAllKeys()), read(store.getAll())]);
        stores.push(`${info.name}/${storeName}`);
        parts.push(
          `idb:${info.name}/${storeName}:${JSON.stringify(keys, replacer)}:${JSON.stringify(values, replacer)}`,
        );
      }
      db.close();
    }
    return { text: parts.join('\n'), stores };
  });
}
