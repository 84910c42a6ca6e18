import { describe, expect, it } from 'vitest';
import { Cell, Signal, Store } from '../../src/core/store.ts';

class Counter extends Store<number> {
  protected snap = 0;
  watching = 0;
  increment(): void {
    this.publish(this.snap + 1);
  }
  protected override onFirstListener(): void {
    this.watching += 1;
  }
  protected override onLastListener(): void {
    this.watching -= 1;
  }
}

describe('the store base', () => {
  it('tells each listener of a change until it unsubscribes, with a new snapshot', () => {
    const c = new Counter();
    const heard: number[] = [];
    const { subscribe, getSnapshot } = c; // bound: handed on as they are
    const off = subscribe(() => heard.push(getSnapshot()));
    c.increment();
    c.increment();
    off();
    c.increment();
    expect(heard).toEqual([1, 2]);
    expect(c.getSnapshot()).toBe(3);
  });

  it('starts watching with the first listener and stops with the last, once each', () => {
    const c = new Counter();
    const a = c.subscribe(() => {});
    const b = c.subscribe(() => {});
    expect(c.watching).toBe(1);
    a();
    a(); // a second removal of the same listener changes nothing
    expect(c.watching).toBe(1);
    b();
    expect(c.watching).toBe(0);
  });

  it('keeps one entry per listener, as a set does', () => {
    const s = new Signal();
    let calls = 0;
    const l = () => (calls += 1);
    s.subscribe(l);
    s.subscribe(l);
    s.fire();
    expect(calls).toBe(1);
  });

  it('lets a cell be written from outside', () => {
    const cell = new Cell('a');
    const seen: string[] = [];
    cell.subscribe(() => seen.push(cell.getSnapshot()));
    cell.set('b');
    expect(seen).toEqual(['b']);
  });
});
