/** A scenario sleep for tests (`scenarioSleep`): held answers wait until the test releases them. */
export class Holds {
  private readonly waiting: Array<() => void> = [];
  private listeners: Array<() => void> = [];
  readonly sleep = (): Promise<void> =>
    new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      for (const l of this.listeners.splice(0)) l();
    });
  nextHold(): Promise<'held'> {
    return new Promise((resolve) => this.listeners.push(() => resolve('held')));
  }
  get count(): number {
    return this.waiting.length;
  }
  releaseAll(): void {
    for (const r of this.waiting.splice(0)) r();
  }
}
