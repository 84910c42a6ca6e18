import type { ControlTerm } from '../../../core/index.ts';

// Shared by the build-time pre-render (first-form-markup.ts), the first-form module and the app's
// takeover, which must not pull the catalog in: names and types only.

/** The element that holds the pre-rendered page; the app removes it once its own form is live. */
export const FIRST_FORM_ID = 'first-form';
/** The `<script type="application/json">` with what the first-form module needs (see FirstFormData). */
export const FIRST_FORM_DATA_ID = 'first-form-data';

export interface FirstFormData {
  operation: string;
  /** The control formula when the first-form module can sign it alone (scheme C, no profile field). */
  formula: ControlTerm[] | null;
  /** The app's entry module and the chunks it imports, loaded after the first paint. */
  app: { entry: string; preload: string[] };
}
