/**
 * Optional parameters start open up to this many (seven since issue 28 gave the callback family
 * `notify_url`, which made payouts' groups seven); more start folded. The app's form and the
 * pre-rendered first form both read it.
 */
export const OPEN_UP_TO = 7;
