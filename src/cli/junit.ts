/**
 * A run as JUnit XML (the format CI servers read): one testsuite for the collection, one testcase
 * per step, a `failure` per failed assertion and an `error` for a step that could not run. The
 * request is shown as the run shows it (card numbers, CVVs and secrets withheld); no key is ever
 * in a run's results, so none can be written here.
 */
import type { RunSnapshot, StepResult } from '../model/collection-run.ts';

// XML 1.0 forbids most control characters even escaped: they become U+FFFD.
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/g;

export function xmlEscape(text: string): string {
  return text
    .replace(INVALID_XML, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function seconds(ms: number | undefined): string {
  return ((ms ?? 0) / 1000).toFixed(3);
}

function caseOf(step: StepResult, suite: string): string {
  const head = `    <testcase classname="${xmlEscape(suite)}" name="${xmlEscape(`${step.index + 1}. ${step.name}`)}" time="${seconds(step.durationMs)}"`;
  const out: string[] = [];
  const failed = step.assertions.filter((a) => !a.ok);
  if (step.state === 'error' || step.state === 'stopped')
    out.push(
      `      <error type="${step.state}" message="${xmlEscape(step.error ?? step.state)}">${xmlEscape(step.error ?? '')}</error>`,
    );
  else if (step.state === 'pending') out.push('      <skipped/>');
  for (const a of failed)
    out.push(
      `      <failure type="assertion" message="${xmlEscape(`${a.name}: expected ${a.expected}, got ${a.actual}`)}"/>`,
    );
  const sent = step.request
    ? [
        `${step.request.method} ${step.request.url}`,
        ...step.request.params.map((p) => `${p.name}=${p.value}`),
      ]
    : [];
  const lines = [
    ...sent,
    ...(step.status
      ? [`status: ${step.status}${step.statusChecks ? ` (${step.statusChecks} status checks)` : ''}`]
      : []),
    ...step.assertions.map(
      (a) => `${a.ok ? 'ok' : 'FAILED'} ${a.name}: expected ${a.expected}, got ${a.actual}`,
    ),
    ...Object.entries(step.saved).map(([k, v]) => `saved {{${k}}} = ${v}`),
  ];
  if (lines.length > 0) out.push(`      <system-out>${xmlEscape(lines.join('\n'))}</system-out>`);
  return out.length === 0 ? `${head}/>` : `${head}>\n${out.join('\n')}\n    </testcase>`;
}

/** The run's JUnit XML; `elapsedMs` is the whole run's time. */
export function renderJUnit(run: RunSnapshot, elapsedMs: number): string {
  const steps = run.steps;
  const failures = steps.filter((s) => s.state === 'failed').length;
  const errors = steps.filter((s) => s.state === 'error' || s.state === 'stopped').length;
  const skipped = steps.filter((s) => s.state === 'pending').length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="paysign run" tests="${steps.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(elapsedMs)}">`,
    `  <testsuite name="${xmlEscape(run.name)}" tests="${steps.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(elapsedMs)}">`,
    ...steps.map((s) => caseOf(s, run.name)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
