import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load, throughputOf } from '../../bench/lib/load.ts';

describe('throughputOf', () => {
  it('counts from the first request sent to the last answer', () => {
    // Sent at 1000, 1005, 1010 ms; answered 2, 3 and 490 ms later: 3 answers in 0.5 s.
    const answers = [
      { doneAt: 1002, latencyMs: 2 },
      { doneAt: 1008, latencyMs: 3 },
      { doneAt: 1500, latencyMs: 490 },
    ];
    expect(throughputOf(answers).seconds).toBeCloseTo(0.5, 9);
    expect(throughputOf(answers).rps).toBeCloseTo(6, 9);
    expect(throughputOf([])).toEqual({ rps: 0, seconds: 0 });
  });
});

describe('load with a list of requests (a fixed amount)', () => {
  let server: Server;
  let url: string;
  /** The server's own view of the run: first request in, last answer out. */
  let firstIn = Number.POSITIVE_INFINITY;
  let lastOut = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      firstIn = Math.min(firstIn, performance.now());
      req.resume();
      req.on('end', () => {
        res.end('{"type":"ok"}');
        lastOut = performance.now();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('reports requests per second over the run itself, not whole seconds of autocannon ticks', async () => {
    const requests = Array.from({ length: 300 }, (_, i) => ({
      path: 'x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `i=${i}`,
    }));
    const result = await load('list', url, requests, { connections: 4 });
    expect(result.requests).toBe(300);
    const serverSeconds = (lastOut - firstIn) / 1000;
    // The client's window holds the server's, and exceeds it by at most the first request's way
    // in and the last answer's way out, each shorter than the slowest answer: true however busy
    // the machine. autocannon's own duration (whole seconds: 1.01 s here) breaks the upper bound.
    expect(result.seconds).toBeGreaterThanOrEqual(serverSeconds - 0.001);
    expect(result.seconds).toBeLessThanOrEqual(serverSeconds + (2 * result.max) / 1000 + 0.002);
    expect(result.rps).toBeCloseTo(300 / result.seconds, 6);
  });
});
