/**
 * The Postman/Insomnia import's page model (issue 27 §5): the worker's progress and chunks, one
 * save of everything once read, and Cancel at either step with nothing kept.
 */
import { describe, expect, it } from 'vitest';
import type { ImportJob, ImportMessage } from '../../src/features/saved/foreign-import-protocol.ts';
import {
  ForeignImportSession,
  type ForeignImportPorts,
} from '../../src/features/saved/foreign-import-session.ts';
import type { SavedRequest } from '../../src/features/saved/saved-schema.ts';

function fakes() {
  const worker = {
    jobs: [] as ImportJob[],
    listener: undefined as ((m: ImportMessage) => void) | undefined,
    terminated: false,
  };
  const saves: Array<{
    name: string;
    requests: readonly SavedRequest[];
    variables: Readonly<Record<string, string>>;
    signal: AbortSignal;
    finish: () => void;
  }> = [];
  const ports: ForeignImportPorts = {
    spawn: () => ({
      post: (job) => worker.jobs.push(job),
      onMessage: (l) => (worker.listener = l),
      terminate: () => (worker.terminated = true),
    }),
    save: (name, _id, requests, variables, onProgress, signal) =>
      new Promise((resolve, reject) => {
        onProgress(requests.length);
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        saves.push({
          name,
          requests,
          variables,
          signal,
          finish: () => resolve({ requests: requests.length }),
        });
      }),
    newId: () => 'c1',
    now: () => '2026-12-06T00:00:00.000Z',
  };
  return { worker, saves, ports };
}

const request = (i: number) => ({ id: `r${i}`, name: `R${i}` }) as unknown as SavedRequest;

describe('ForeignImportSession', () => {
  it('tells progress, saves everything once read, and says what was imported', async () => {
    const { worker, saves, ports } = fakes();
    const s = new ForeignImportSession(ports);
    s.start('big.json', '{…}');
    expect(worker.jobs).toEqual([{ text: '{…}', collectionId: 'c1', at: '2026-12-06T00:00:00.000Z' }]);
    expect(s.getSnapshot().phase).toBe('reading');
    worker.listener!({ type: 'progress', done: 1000, total: 3000 });
    expect(s.getSnapshot().message).toBe('Reading big.json: 1,000 of 3,000 requests…');
    worker.listener!({ type: 'chunk', requests: [request(1), request(2)] });
    worker.listener!({ type: 'chunk', requests: [request(3)] });
    expect(saves).toHaveLength(0);
    worker.listener!({
      type: 'done',
      format: 'postman',
      name: 'Big',
      total: 3,
      skipped: [],
      variables: { base_url: 'http://127.0.0.1:8080' },
    });
    expect(worker.terminated).toBe(true);
    expect(s.getSnapshot().phase).toBe('saving');
    expect(saves[0]!.requests.map((r) => r.id)).toEqual(['r1', 'r2', 'r3']);
    // The file's variables become the collection's defaults (issue 33) on the worker's road too.
    expect(saves[0]!.variables).toEqual({ base_url: 'http://127.0.0.1:8080' });
    saves[0]!.finish();
    await Promise.resolve();
    await Promise.resolve();
    expect(s.getSnapshot()).toMatchObject({
      phase: 'done',
      message: 'Imported 3 requests of the Postman collection “Big” from big.json into a new collection.',
    });
  });

  it('Cancel while reading stops the worker; nothing is saved', () => {
    const { worker, saves, ports } = fakes();
    const s = new ForeignImportSession(ports);
    s.start('big.json', '{…}');
    worker.listener!({ type: 'chunk', requests: [request(1)] });
    s.cancel();
    expect(worker.terminated).toBe(true);
    expect(s.getSnapshot()).toMatchObject({
      phase: 'cancelled',
      message: 'Import of big.json cancelled: nothing was imported.',
    });
    worker.listener!({ type: 'done', format: 'postman', name: 'Big', total: 1, skipped: [], variables: {} });
    expect(saves).toHaveLength(0);
    expect(s.getSnapshot().phase).toBe('cancelled');
  });

  it('Cancel while saving aborts the transaction', async () => {
    const { worker, saves, ports } = fakes();
    const s = new ForeignImportSession(ports);
    s.start('big.json', '{…}');
    worker.listener!({ type: 'chunk', requests: [request(1)] });
    worker.listener!({ type: 'done', format: 'postman', name: 'Big', total: 1, skipped: [], variables: {} });
    s.cancel();
    expect(saves[0]!.signal.aborted).toBe(true);
    await Promise.resolve();
    expect(s.getSnapshot().phase).toBe('cancelled');
  });

  it('a file the worker cannot read: its message, nothing saved', () => {
    const { worker, saves, ports } = fakes();
    const s = new ForeignImportSession(ports);
    s.start('deep.json', '{…}');
    worker.listener!({
      type: 'failed',
      message: 'This Postman collection nests folders more than 100 deep.',
    });
    expect(s.getSnapshot()).toMatchObject({
      phase: 'failed',
      message: 'deep.json was not imported. This Postman collection nests folders more than 100 deep.',
    });
    expect(saves).toHaveLength(0);
  });
});
