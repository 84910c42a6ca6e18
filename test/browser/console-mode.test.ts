import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleMode } from '../../src/browser/console-mode.ts';

/** A document that has (or not) the server's `<meta name="pay-console-mode">`. */
function withPage(content: string | null): void {
  vi.stubGlobal('document', {
    querySelector: (selector: string) =>
      selector === 'meta[name="pay-console-mode"]' && content !== null ? { content } : null,
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('consoleMode', () => {
  it('is classroom only when the server says so in the page', () => {
    withPage('classroom');
    expect(consoleMode()).toBe('classroom');
    withPage(null);
    expect(consoleMode()).toBe('console');
    withPage('something else');
    expect(consoleMode()).toBe('console');
  });

  it('is the ordinary console without a page (Node)', () => {
    expect(consoleMode()).toBe('console');
  });
});
