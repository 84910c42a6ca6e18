/** What a bench section module exports: `export const title = '…'` and `export async function run()`. */
export interface BenchSection {
  /** A heading for the section's output. */
  title: string;
  /** Runs the section and prints its table(s); throws to report a failure. */
  run(): Promise<void>;
}
