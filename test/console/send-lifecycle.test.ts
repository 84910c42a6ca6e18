import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SendAborted, SendLifecycle } from '../../src/features/console/send/send-lifecycle.ts';
import {
  DEFAULT_TIMEOUT_S,
  loadTimeoutSeconds,
  parseTimeoutSeconds,
  saveTimeoutSeconds,
} from '../../src/features/console/send/send-timeout.ts';

class MemoryStorage implements Storage {
  private m = new Map<string, string>();
  get length() {
    return this.m.size;
  }
  clear() {
    this.m.clear();
  }
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  key(i: number) {
    return [...this.m.keys()][i] ?? null;
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
  setItem(k: string, v: string) {
    this.m.set(k, v);
  }
}

describe('send lifecycle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('aborts its signal after the timeout and names it "Timed out after N s"', () => {
    const life = new SendLifecycle(5);
    vi.advanceTimersByTime(4999);
    expect(life.signal.aborted).toBe(false);
    expect(life.aborted).toBeNull();
    vi.advanceTimersByTime(1);
    expect(life.signal.aborted).toBe(true);
    expect(life.aborted).toBe('timeout');
    const e = life.explain(new Error('fetch failed'), [{ name: 'client_orderid', value: 'inv-1' }]);
    expect(e).toBeInstanceOf(SendAborted);
    expect((e as SendAborted).code).toBe('SEND_TIMEOUT');
    expect((e as SendAborted).message).toBe(
      'Timed out after 5 s — the gateway may still have processed it; check with status.',
    );
    expect((e as SendAborted).sent).toEqual([{ name: 'client_orderid', value: 'inv-1' }]);
  });

  it('aborts at once on cancel, says "Cancelled", and a cancel wins over a later timeout', () => {
    const life = new SendLifecycle(30);
    life.cancel();
    expect(life.signal.aborted).toBe(true);
    vi.advanceTimersByTime(30_000);
    expect(life.aborted).toBe('cancelled');
    const e = life.explain(new DOMException('x', 'AbortError')) as SendAborted;
    expect(e.code).toBe('SEND_CANCELLED');
    expect(e.message).toMatch(/^Cancelled/);
  });

  it('passes other failures through, and a settled send never times out', () => {
    const life = new SendLifecycle(1);
    const failure = new Error('proxy down');
    expect(life.explain(failure)).toBe(failure);
    life.settle();
    vi.advanceTimersByTime(10_000);
    expect(life.signal.aborted).toBe(false);
  });
});

describe('timeout setting', () => {
  it('accepts whole seconds from 1 to 600 and says what to type otherwise', () => {
    expect(parseTimeoutSeconds(' 45 ')).toEqual({ ok: true, seconds: 45 });
    for (const bad of ['', '0', '601', '1.5', '-3', 'soon']) {
      const r = parseTimeoutSeconds(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toContain('from 1 to 600');
    }
  });

  it('remembers the choice, and falls back to 30 s on nothing or garbage', () => {
    const s = new MemoryStorage();
    expect(loadTimeoutSeconds(s)).toBe(DEFAULT_TIMEOUT_S);
    saveTimeoutSeconds(12, s);
    expect(loadTimeoutSeconds(s)).toBe(12);
    s.setItem('pay-console.send-timeout-s', 'x');
    expect(loadTimeoutSeconds(s)).toBe(DEFAULT_TIMEOUT_S);
    saveTimeoutSeconds(DEFAULT_TIMEOUT_S, s);
    expect(s.length).toBe(0);
  });
});
