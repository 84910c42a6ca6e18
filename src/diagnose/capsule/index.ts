/** The incident capsule: a pasted incident split into requests, diagnosed, checked and hash-chained. */
export * from './split-incident.ts';
export * from './state-rules.ts';
export * from './capsule.ts';
