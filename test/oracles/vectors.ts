/** Loads the known-answer vector files of test/vectors/ (data named after their source). */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../vectors/', import.meta.url));

export function loadVector<T>(name: string): T {
  return JSON.parse(readFileSync(`${DIR}${name}`, 'utf8')) as T;
}

export function vectorFiles(): string[] {
  return readdirSync(DIR).filter((f) => f.endsWith('.json'));
}
