import type { Operation } from '../catalog/index.ts';
import { type EndpointRef } from '../core/index.ts';
import { captureNotes, formatRule, ruleById, type Diagnosis, type DiffSegment } from '../diagnose/index.ts';
import { CAPTURE_FORMAT_LABEL, type CaptureFormat } from '../capture/index.ts';
import { fields, heading } from './output.ts';
import {
  describeOperation,
  renderBaseString,
  renderControlInput,
  renderOAuthParameters,
  schemeLine,
} from './render-signing.ts';

/** What the command knows beside the diagnosis: how the capture was read and where the login came from. */
export interface VerifyContext {
  /** The operation; absent for a callback or customer return (checked against its own formula). */
  op?: Operation;
  format: CaptureFormat;
  /** The other formats the capture also reads as (detected, not chosen). */
  alternatives?: readonly CaptureFormat[];
  login: string | undefined;
  loginSource: 'option' | 'body' | 'header' | undefined;
  /** True when more than one URL scheme was tried because the capture does not say which. */
  autoScheme: boolean;
  parseNotes: readonly string[];
}

/** The first line: the verdict in words the existing scripts grep for. */
export function verdictLine(d: Diagnosis): string {
  if (d.verdict === 'ok') return 'signature OK';
  if (d.verdict === 'cannot-check') return 'signature NOT CHECKED';
  return d.signatureMatches
    ? 'signature OK, but the request would be refused (see the likely causes)'
    : 'signature MISMATCH';
}

function endpointText(endpoint: EndpointRef): string {
  return endpoint.kind === 'group' ? `group ${endpoint.id}` : endpoint.id;
}

/** `matches when signed as …` / `matches neither …` / `checked as signed over …`. */
export function urlReport(d: Diagnosis, autoScheme: boolean): string {
  const hit = d.triedUrls.find((t) => t.matches === true);
  if (hit) {
    const others = d.triedUrls
      .filter((t) => t !== hit)
      .map((t) => `${new URL(t.url).protocol}// does not match`);
    return `matches when signed as ${hit.url}${others.length > 0 ? ` (${others.join(', ')})` : ''}`;
  }
  if (autoScheme && d.signatureMatches !== null)
    return `matches neither when signed as ${d.triedUrls.map((t) => t.url).join(' nor as ')}`;
  return `checked as signed over ${d.triedUrls[0]!.url}`;
}

function segmentsText(segments: readonly DiffSegment[]): string {
  return segments
    .map((s) => (s.op === 'equal' ? s.text : s.op === 'removed' ? `[-${s.text}-]` : `{+${s.text}+}`))
    .join('');
}

/** The whole report of `paysign verify`, as text. */
export function renderDiagnosis(d: Diagnosis, ctx: VerifyContext): string {
  const { op } = ctx;
  const v = d.verification;
  const also =
    ctx.alternatives && ctx.alternatives.length > 0
      ? `; it also reads as ${ctx.alternatives.map((f) => `${CAPTURE_FORMAT_LABEL[f]} (--format ${f})`).join(', ')}`
      : '';
  const rows: Array<[string, string]> = op
    ? [
        ['operation', describeOperation(op)],
        ['scheme', schemeLine(op, { scheme: d.scheme })],
        ['endpoint', endpointText(d.endpoint)],
        ['capture', `${CAPTURE_FORMAT_LABEL[ctx.format]} (recognised by its content${also})`],
      ]
    : [
        ['operation', 'callback or customer return (server_callback_url, redirect_url)'],
        ['scheme', 'control = SHA-1 of status + orderid + merchant_order + control key'],
        ['capture', `${CAPTURE_FORMAT_LABEL[ctx.format]} (recognised by its content${also})`],
      ];
  if (v.scheme === 'control') {
    if (ctx.login !== undefined)
      rows.push([
        'login',
        `${ctx.login} (${ctx.loginSource === 'option' ? 'from --login' : "from the body's login field"})`,
      ]);
    rows.push(['received control', v.received ?? '(none)']);
    if (d.signatureMatches !== true)
      rows.push(['expected control', v.expected ?? '(cannot be computed, see below)']);
  } else {
    rows.push(['url', urlReport(d, ctx.autoScheme)]);
    if (v.oauth.oauth_consumer_key !== undefined) rows.push(['consumer key', v.oauth.oauth_consumer_key]);
    if (v.oauth.oauth_signature_method !== undefined) rows.push(['method', v.oauth.oauth_signature_method]);
    rows.push(['received', v.received ?? '(no oauth_signature)']);
    if (d.signatureMatches === false && v.scheme === 'oauth-hmac-sha1') {
      for (const t of d.triedUrls)
        rows.push([
          d.triedUrls.length > 1 ? `expected (${new URL(t.url).protocol}//)` : 'expected',
          t.expectedSignature ?? '(cannot be computed)',
        ]);
    }
  }
  const out = [verdictLine(d), fields(rows, '  ')];
  for (const p of v.problems) out.push(`  why: ${p.message}`);
  for (const n of captureNotes({ notes: ctx.parseNotes, schemeKnown: !ctx.autoScheme }, d))
    out.push(`  note: ${n}`);

  if (d.likelyCauses.length > 0) {
    out.push(heading('Likely causes').trimEnd());
    d.likelyCauses.forEach((c, i) => {
      out.push(`  ${i + 1}. ${c.title} [${c.confidence}]`);
      out.push(`     evidence: ${c.evidence}`);
      out.push(`     advice:   ${c.advice}`);
      out.push(`     rule:     ${formatRule(c.rules[0]!)}`);
    });
  }
  if (d.firstDifference || d.firstDifferenceNote) {
    out.push(heading('First difference').trimEnd());
    if (d.firstDifference) {
      const f = d.firstDifference;
      out.push(`  ${f.description}`);
      out.push(
        fields(
          [
            [
              'compared with',
              f.against === 'mistaken-signing'
                ? 'the mistaken signing that reproduces the signature'
                : 'the pasted expected text',
            ],
            ['expected', f.expected === '' ? '(nothing)' : f.expected],
            [
              f.against === 'mistaken-signing' ? 'signed' : 'pasted',
              f.actual === '' ? '(nothing)' : f.actual,
            ],
            ...(f.offset !== undefined
              ? ([['at character', String(f.offset)]] as Array<[string, string]>)
              : []),
          ],
          '  ',
        ),
      );
    } else out.push(`  ${d.firstDifferenceNote}`);
  }
  if (d.structuralFindings.length > 0) {
    out.push(heading('Structural checks').trimEnd());
    const order = { error: 0, warning: 1, info: 2 } as const;
    for (const f of [...d.structuralFindings].sort((a, b) => order[a.severity] - order[b.severity]))
      out.push(
        `  ${f.severity.padEnd(7)}  ${f.message}${f.rule ? `\n           ${formatRule(ruleById(f.rule))}` : ''}`,
      );
  }
  if (d.signatureMatches !== true) {
    if (v.scheme === 'control') {
      out.push(
        heading('Expected signing input').trimEnd(),
        op
          ? renderControlInput(op, {}, v.trace)
          : v.trace.terms.map((t, i) => `  ${i + 1}  ${t.label.padEnd(16)} ${t.value}`).join('\n'),
      );
    } else {
      const title =
        v.scheme === 'oauth-hmac-sha1'
          ? 'Base string recomputed from the capture'
          : 'Base string the signature was checked against';
      const suffix =
        d.triedUrls.length > 1
          ? ` (${new URL(d.triedUrls[0]!.url).protocol}//; the other URL differs only in the scheme)`
          : '';
      out.push(
        heading(title + suffix).trimEnd(),
        'Parameters:',
        renderOAuthParameters(v.parameters),
        renderBaseString(d.expected.oauth!.parameterString, v.normalizedUrl, v.base),
      );
    }
  }
  if (d.expectedDiff) {
    const what = v.scheme === 'control' ? 'concatenation' : 'base string';
    out.push(heading(`Pasted expected ${what} against ours`).trimEnd());
    if (d.expectedDiff.equal) out.push(`  identical: the gateway builds the same ${what}.`);
    else
      out.push(
        fields(
          [
            ['ours', d.expectedDiff.ours],
            ['pasted', d.expectedDiff.theirs],
            ['difference', segmentsText(d.expectedDiff.segments)],
          ],
          '  ',
        ),
        '  ([-…-] only in ours, {+…+} only in the pasted text)',
      );
  }
  return `${out.join('\n')}\n`;
}

/** The whole report as one JSON object (the fields of earlier versions kept). */
export function diagnosisJson(d: Diagnosis, ctx: VerifyContext): Record<string, unknown> {
  const v = d.verification;
  const common = {
    verdict: d.verdict === 'ok' ? 'OK' : d.verdict === 'mismatch' ? 'MISMATCH' : 'NOT_CHECKED',
    ok: d.verdict === 'ok',
    signatureMatches: d.signatureMatches,
    operation: ctx.op?.path ?? d.operationPath,
    scheme: d.scheme,
    endpoint: d.endpoint,
    captureFormat: ctx.format,
    ...(ctx.login !== undefined ? { login: ctx.login } : {}),
    received: d.received,
  };
  const diagnosis = {
    likelyCauses: d.likelyCauses,
    firstDifference: d.firstDifference,
    ...(d.firstDifferenceNote ? { firstDifferenceNote: d.firstDifferenceNote } : {}),
    structuralFindings: d.structuralFindings,
    ...(d.expectedDiff ? { expectedDiff: d.expectedDiff } : {}),
    notes: captureNotes({ notes: ctx.parseNotes, schemeKnown: !ctx.autoScheme }, d),
    variantsTried: d.variantsTried,
  };
  if (v.scheme === 'control') {
    return {
      ...common,
      expected: v.expected,
      signingInput: v.trace.maskedInput,
      terms: v.trace.terms.map((t) => ({
        name: t.label,
        value: t.value,
        source: t.source,
        ...(t.note ? { note: t.note } : {}),
      })),
      problems: v.problems.map((p) => p.message),
      ...diagnosis,
    };
  }
  return {
    ...common,
    signedUrl: d.signedUrl,
    triedUrls: d.triedUrls.map((t) => t.url),
    urlReport: urlReport(d, ctx.autoScheme),
    expected: v.scheme === 'oauth-hmac-sha1' ? v.expected : null,
    ...(v.scheme === 'oauth-hmac-sha1'
      ? { expectedByUrl: Object.fromEntries(d.triedUrls.map((t) => [t.url, t.expectedSignature])) }
      : {}),
    signingInput: v.base.baseString,
    baseString: v.base.baseString,
    parameterString: d.expected.oauth!.parameterString,
    parameters: v.parameters.map((p) => ({
      name: p.name,
      value: p.value,
      source: p.source,
      signed: p.included,
    })),
    problems: v.problems.map((p) => p.message),
    ...diagnosis,
  };
}
