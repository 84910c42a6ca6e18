/**
 * The Postman/Insomnia import's page model (issue 27 §5): the worker reads and saves, the page
 * hears progress only; Cancel at either step terminates the worker (its transaction with it).
 */
import { describe, expect, it } from 'vitest';
import type { ImportJob, ImportMessage } from '../../src/features/saved/foreign-import-protocol.ts';
import {
  ForeignImportSession,
  type ForeignImportPorts,
} from '../../src/features/saved/foreign-import-session.ts';

function fakes() {
  const worker = {
    jobs: [] as ImportJob[],
    listener: undefined as ((m: ImportMessage) => void) | undefined,
    terminated: 0,
    spawned: 0,
  };
  const ports: ForeignImportPorts = {
    spawn: () => {
      worker.spawned++;
      return {
        post: (job) => worker.jobs.push(job),
        onMessage: (l) => (worker.listener = l),
        terminate: () => worker.terminated++,
      };
    },
    newId: () => 'c1',
    now: () => '2026-12-06T00:00:00.000Z',
  };
  return { worker, ports };
}

const done = (requests: number, skipped: Array<{ name: string; reason: string }> = []): ImportMessage => ({
  type: 'done',
  format: 'postman',
  name: 'Big',
  requests,
  skipped,
});

describe('ForeignImportSession', () => {
  it('tells reading and saving progress, then what was imported', () => {
    const { worker, ports } = fakes();
    const s = new ForeignImportSession(ports);
    s.start('big.json', '{…}');
    expect(worker.jobs).toEqual([{ text: '{…}', collectionId: 'c1', at: '2026-12-06T00:00:00.000Z' }]);
    expect(s.getSnapshot()).toMatchObject({ phase: 'reading', message: 'Reading big.json…' });
    worker.listener!({ type: 'progress', done: 1000, total: 3000 });
    expect(s.getSnapshot().message).toBe('Reading big.json: 1,000 of 3,000 requests…');
    expect(s.busy).toBe(true);
    worker.listener!({ type: 'saving', done: 2000, total: 3000 });
    expect(s.getSnapshot()).toMatchObject({
      phase: 'saving',
      done: 2000,
      total: 3000,
      message: 'Saving 2,000 of 3,000 requests…',
    });
    worker.listener!(done(3000));
    expect(worker.terminated).toBe(1);
    expect(s.busy).toBe(false);
    expect(s.getSnapshot()).toMatchObject({
      phase: 'done',
      done: 3000,
      message: 'Imported 3000 requests of the Postman collection “Big” from big.json into a new collection.',
    });
  });

  it('skipped requests are counted in the message and listed', () => {
    const { worker, ports } = fakes();
    const s = new ForeignImportSession(ports);
    s.start('mixed.json', '{…}');
    worker.listener!(done(1, [{ name: 'Other API', reason: 'not this gateway' }]));
    expect(s.getSnapshot().message).toBe(
      'Imported 1 request of the Postman collection “Big” from mixed.json into a new collection; skipped 1, each listed below with why.',
    );
    expect(s.getSnapshot().skipped).toEqual([{ name: 'Other API', reason: 'not this gateway' }]);
  });

  it.each([
    ['reading', { type: 'progress', done: 1, total: 2 }],
    ['saving', { type: 'saving', done: 1, total: 2 }],
  ] as const)('Cancel while %s terminates the worker; later messages are ignored', (_, m) => {
    const { worker, ports } = fakes();
    const s = new ForeignImportSession(ports);
    s.start('big.json', '{…}');
    worker.listener!(m);
    s.cancel();
    expect(worker.terminated).toBe(1);
    expect(s.getSnapshot()).toMatchObject({
      phase: 'cancelled',
      message: 'Import of big.json cancelled: nothing was imported.',
    });
    worker.listener!(done(2));
    expect(s.getSnapshot().phase).toBe('cancelled');
  });

  it('a new import stops the one under way', () => {
    const { worker, ports } = fakes();
    const s = new ForeignImportSession(ports);
    s.start('a.json', '{…}');
    const first = worker.listener!;
    s.start('b.json', '{…}');
    expect(worker.spawned).toBe(2);
    expect(worker.terminated).toBe(1);
    first(done(5));
    expect(s.getSnapshot()).toMatchObject({ phase: 'reading', fileName: 'b.json' });
  });

  it('a file the worker cannot read: its message, nothing saved', () => {
    const { worker, ports } = fakes();
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
  });
});
