/**
 * The load generator in a process of its own: `tsx bench/lib/load-worker.ts <spec.json>` runs one
 * autocannon load (spec: label, url, requests (one, or a list used once each), duration, connections,
 * method) and prints its result as one JSON line.
 */
import { readFileSync } from 'node:fs';
import { load, type PreparedRequest } from './load.ts';
import { errorText } from '../../src/core/errors.ts';

interface Spec {
  label: string;
  url: string;
  requests: PreparedRequest | PreparedRequest[];
  durationSec?: number;
  connections?: number;
}

const spec = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Spec;
load(spec.label, spec.url, spec.requests, {
  ...(spec.durationSec !== undefined ? { durationSec: spec.durationSec } : {}),
  ...(spec.connections !== undefined ? { connections: spec.connections } : {}),
}).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  },
  (e: unknown) => {
    process.stderr.write(`${errorText(e)}\n`);
    process.exit(1);
  },
);
