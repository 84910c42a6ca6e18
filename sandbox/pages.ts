import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { callbackControl, constantTimeEqual, type CryptoPort } from '../src/core/index.ts';
import { checkField, expiryInPast, F, formatExpiry } from '../src/catalog/index.ts';
import type { CardData, Engine } from './engine/index.ts';
import { decodeUtf8 } from './http-input.ts';
import type { MerchantRegistry } from './merchants.ts';
import { fromMinorUnits, THREE_DS_PASSWORD } from './outcomes.ts';
import type { Scheduler } from './scheduler.ts';
import type { OrderRow } from './store.ts';

/** The sandbox's own pages: no script, no external resource, nothing cached. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  // Not no-referrer: with it, browsers send `Origin: null` on the pages' own form posts, which the
  // server's cross-site guard refuses. same-origin still sends nothing to the merchant's redirect_url.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** Every page route: the customer's browser, whoever it is (the page's token is the credential). */
const PAGE = { config: { access: 'sandbox-page' } } as const;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function layout(title: string, inner: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
main{max-width:30rem;margin:2rem auto;background:#fff;padding:1.5rem 2rem;border-radius:8px;box-shadow:0 1px 3px #0002}
h1{font-size:1.3rem;margin-top:0}
label{display:block;margin:.8rem 0 .2rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.5rem;font:inherit;border:1px solid #8a90a0;border-radius:4px}
button{margin-top:1.2rem;padding:.6rem 1.2rem;font:inherit;font-weight:600;border:0;border-radius:4px;background:#1f5fd1;color:#fff;cursor:pointer}
.tag{font-size:.8rem;color:#5a6070;text-transform:uppercase;letter-spacing:.05em}
.error{color:#a3121a}
.row{display:flex;gap:1rem}.row>div{flex:1}
textarea{width:100%;box-sizing:border-box;font:12px monospace;height:8rem}
</style>
</head>
<body><main>
<p class="tag">Local sandbox: test data only, nothing is charged</p>
${inner}
</main></body>
</html>
`;
}

function errorsBlock(errors: string[]): string {
  return errors.length === 0
    ? ''
    : `<div class="error" role="alert"><p>Please correct:</p><ul>${errors.map((e) => `<li>${escapeHtml(e)}</li>`).join('')}</ul></div>`;
}

function cardFormPage(order: OrderRow, errors: string[], keep: Record<string, string>): string {
  const what =
    order.kind === 'account-verification'
      ? 'Verify your card (nothing is charged)'
      : `${order.kind === 'preauth' ? 'Authorize' : 'Pay'} ${fromMinorUnits(order.amount_minor)} ${escapeHtml(order.currency ?? '')}`;
  const v = (name: string) => escapeHtml(keep[name] ?? '');
  return layout(
    'Card payment',
    `<h1>${what}</h1>
<p>Order ${escapeHtml(order.client_orderid)}</p>
${errorsBlock(errors)}
<form method="post">
<label for="pan">Card number</label>
<input id="pan" name="credit_card_number" inputmode="numeric" autocomplete="cc-number" required>
<label for="name">Name on the card</label>
<input id="name" name="card_printed_name" autocomplete="cc-name" value="${v('card_printed_name')}" required>
<div class="row">
<div><label for="month">Expiry month</label><input id="month" name="expire_month" inputmode="numeric" placeholder="MM" value="${v('expire_month')}" required></div>
<div><label for="year">Expiry year</label><input id="year" name="expire_year" inputmode="numeric" placeholder="YYYY" value="${v('expire_year')}" required></div>
</div>
<label for="cvv">CVV2</label>
<input id="cvv" name="cvv2" inputmode="numeric" autocomplete="cc-csc" required>
<button type="submit">${order.kind === 'account-verification' ? 'Verify' : 'Pay'}</button>
</form>
<p class="tag">Test card 4444 4444 4444 4448. CVV 123 approves, 321 asks for 3-D Secure (password "${THREE_DS_PASSWORD}"), 116 is declined.</p>`,
  );
}

function payoutFormPage(order: OrderRow, errors: string[], keep: Record<string, string>): string {
  const v = (name: string) => escapeHtml(keep[name] ?? '');
  return layout(
    'Payout recipient',
    `<h1>Receive ${fromMinorUnits(order.amount_minor)} ${escapeHtml(order.currency ?? '')}</h1>
<p>Order ${escapeHtml(order.client_orderid)}. Give a card number, or a bank account and bank name.</p>
${errorsBlock(errors)}
<form method="post">
<label for="card">Recipient card number</label>
<input id="card" name="destination-card-no" inputmode="numeric" autocomplete="off">
<label for="account">Bank account number</label>
<input id="account" name="account_number" value="${v('account_number')}">
<label for="bank">Bank name</label>
<input id="bank" name="bank_name" value="${v('bank_name')}">
<label for="holder">Recipient name</label>
<input id="holder" name="card_printed_name" value="${v('card_printed_name')}">
<button type="submit">Receive the payout</button>
</form>`,
  );
}

function issuerPage(order: OrderRow, failed: boolean): string {
  return layout(
    '3-D Secure',
    `<h1>Issuer authentication (3-D Secure ${escapeHtml(order.tds_version ?? '')})</h1>
<p>Confirm the ${order.kind === 'preauth' ? 'authorization' : 'payment'} of ${fromMinorUnits(order.amount_minor)} ${escapeHtml(order.currency ?? '')}
with card ending ${escapeHtml(order.card_last4 ?? '')}.</p>
${failed ? errorsBlock(['Enter the password.']) : ''}
<form method="post">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="off">
<button type="submit">Confirm</button>
</form>
<p class="tag">Sandbox issuer: the password "${THREE_DS_PASSWORD}" authenticates; any other answer fails.</p>`,
  );
}

function messagePage(title: string, text: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`);
}

function resultPage(title: string, lines: Array<[string, string]>): string {
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p>This request has no redirect_url, so the sandbox shows what it would have sent back:</p>
${lines.map(([k, v]) => `<label>${escapeHtml(k)}</label><textarea readonly>${escapeHtml(v)}</textarea>`).join('\n')}`,
  );
}

/** The merchant's URL with the outcome added to its query; undefined when it is not a URL (a page shows it then). */
/** An absolute http(s) address to post the customer back to, or undefined. */
function returnAddress(base: string | null): string | undefined {
  if (!base) return undefined;
  try {
    const u = new URL(base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The page that sends the customer back to the merchant as the gateway does, by a POSTed form
 * (gateway-notes.md, "The gateway's default dialect": the SDK reads the return from `$_POST`;
 * 3-D Secure TermUrl and notification URLs are POSTs): the signed fields as hidden inputs and a
 * button. The one script submits the form at once; it runs only because it carries this answer's
 * nonce, and the page's policy allows no other script. Without scripts the button does the same.
 */
export function postBackPage(
  action: string,
  fields: ReadonlyArray<readonly [string, string]>,
  nonce: string,
): { html: string; headers: Record<string, string> } {
  const inputs = fields
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('\n');
  const html = layout(
    'Back to the merchant',
    `<h1>Back to the merchant</h1>
<p>The sandbox sends you back to the shop with the result.</p>
<form id="return" method="post" action="${escapeHtml(action)}">
${inputs}
<button type="submit">Continue to the shop</button>
</form>
<script nonce="${nonce}">document.getElementById('return').submit();</script>`,
  );
  return {
    html,
    headers: {
      ...PAGE_HEADERS,
      'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; form-action http: https:; base-uri 'none'`,
    },
  };
}

function readPageForm(raw: unknown): URLSearchParams | undefined {
  const text = Buffer.isBuffer(raw) ? decodeUtf8(raw) : raw === undefined ? '' : undefined;
  if (text === undefined) return undefined;
  try {
    return new URLSearchParams(text);
  } catch {
    return undefined;
  }
}

function firstValues(form: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of form) if (!(k in out)) out[k] = v.trim();
  return out;
}

export interface PageDeps {
  engine: Engine;
  scheduler: Scheduler;
  merchants: MerchantRegistry;
  crypto: CryptoPort;
}

/** Registers the hosted form, issuer (ACS) and 3DS Method pages under `/paynet/`. */
export function registerPages(app: FastifyInstance, deps: PageDeps): void {
  const { engine, scheduler } = deps;
  const html = (reply: FastifyReply, code: number, body: string) =>
    reply.code(code).headers(PAGE_HEADERS).send(body);
  const postBack = (reply: FastifyReply, action: string, fields: Array<[string, string]>) => {
    // A fresh nonce per answer: 128 bits, so a page's injected markup cannot guess it.
    const page = postBackPage(action, fields, randomBytes(16).toString('base64'));
    return reply.code(200).headers(page.headers).send(page.html);
  };
  const notFound = (reply: FastifyReply) =>
    html(
      reply,
      404,
      messagePage(
        'Page not found',
        'This sandbox page does not exist or has expired: start the payment again.',
      ),
    );

  const alreadySubmitted = (reply: FastifyReply, order: OrderRow) =>
    html(
      reply,
      409,
      messagePage(
        'Already submitted',
        `Order ${order.client_orderid} has been submitted already: its outcome is final.`,
      ),
    );

  /** Sends the customer back to the merchant's redirect_url with the final outcome, signed. */
  async function customerReturn(reply: FastifyReply, order: OrderRow): Promise<FastifyReply> {
    const request = engine.store.requests.of(order.id)[0]!;
    const merchant = deps.merchants.byLogin(order.merchant);
    const control = merchant
      ? await callbackControl(
          { status: request.status, orderid: String(order.id), merchantOrder: order.client_orderid },
          merchant.controlKey,
          deps.crypto,
        )
      : '';
    const params: Array<[string, string]> = [
      ['status', request.status],
      ['orderid', String(order.id)],
      ['merchant_order', order.client_orderid],
      ['client_orderid', order.client_orderid],
      ...(request.error_message
        ? ([['error_message', request.error_message]] as Array<[string, string]>)
        : []),
      ['control', control],
    ];
    const action = returnAddress(order.redirect_url);
    if (!action) return html(reply, 200, resultPage(`Payment ${request.status}`, params));
    return postBack(reply, action, params);
  }

  app.get<{ Params: { token: string } }>('/paynet/form/:token', PAGE, async (request, reply) => {
    scheduler.finalizeDue();
    const order = engine.store.orders.byToken(request.params.token);
    if (!order || order.form_state === null) return notFound(reply);
    if (order.form_state === 'awaiting-3ds')
      return reply.code(303).header('location', `../3ds/acs/${request.params.token}`).send();
    if (order.form_state !== 'awaiting-card') return alreadySubmitted(reply, order);
    return html(
      reply,
      200,
      order.kind === 'payout' ? payoutFormPage(order, [], {}) : cardFormPage(order, [], {}),
    );
  });

  app.post<{ Params: { token: string } }>('/paynet/form/:token', PAGE, async (request, reply) => {
    scheduler.finalizeDue();
    const token = request.params.token;
    const order = engine.store.orders.byToken(token);
    if (!order || order.form_state === null) return notFound(reply);
    if (order.form_state !== 'awaiting-card') return alreadySubmitted(reply, order);
    const form = readPageForm(request.body);
    if (!form)
      return html(
        reply,
        400,
        messagePage('Unreadable form', 'The form could not be read: submit it again from the page.'),
      );
    const values = firstValues(form);
    const now = engine.options.clock();
    const errors: string[] = [];
    let card: CardData | undefined;
    if (order.kind === 'payout') {
      const dest = values['destination-card-no'] ?? '';
      const bank = (values.account_number ?? '') !== '' && (values.bank_name ?? '') !== '';
      if (dest === '' && !bank)
        errors.push('Give a recipient card number, or a bank account number and a bank name.');
      for (const spec of [F.destination_card_no, F.account_number, F.bank_name]) {
        const problem = checkField(spec, values[spec.name], new Date(now));
        if (problem) errors.push(problem);
      }
    } else {
      for (const spec of [F.credit_card_number, F.card_printed_name, F.expire_month, F.expire_year, F.cvv2]) {
        const problem = checkField(spec, values[spec.name], new Date(now));
        if (problem) errors.push(problem);
      }
      const month = values.expire_month ?? '';
      const year = values.expire_year ?? '';
      if (errors.length === 0 && expiryInPast(month, year, new Date(now)))
        errors.push(`The card expired in ${formatExpiry(month, year)}: use a future expiry.`);
      card = {
        pan: values.credit_card_number ?? '',
        name: values.card_printed_name ?? '',
        expMonth: month,
        expYear: year,
        cvv: values.cvv2,
      };
    }
    if (errors.length > 0) {
      return html(
        reply,
        400,
        order.kind === 'payout' ? payoutFormPage(order, errors, values) : cardFormPage(order, errors, values),
      );
    }
    const result = engine.submitHostedCard(token, card, now);
    if (!result)
      return html(reply, 409, messagePage('Already submitted', 'This form has been submitted already.'));
    if (result.next === 'acs') return reply.code(303).header('location', `../3ds/acs/${token}`).send();
    return customerReturn(reply, result.order);
  });

  app.get<{ Params: { token: string } }>('/paynet/3ds/acs/:token', PAGE, async (request, reply) => {
    scheduler.finalizeDue();
    const order = engine.store.orders.byToken(request.params.token);
    if (!order || !order.tds_version) return notFound(reply);
    if (!engine.issuerPageOpen(order)) {
      const why =
        order.tds_stage === 'method'
          ? 'The 3DS Method step comes first: the merchant uploads its result (upload-method-url-result), then the challenge opens.'
          : 'This 3-D Secure authentication is already complete.';
      return html(reply, 409, messagePage('Nothing to authenticate', why));
    }
    return html(reply, 200, issuerPage(order, false));
  });

  app.post<{ Params: { token: string } }>('/paynet/3ds/acs/:token', PAGE, async (request, reply) => {
    scheduler.finalizeDue();
    const token = request.params.token;
    const order = engine.store.orders.byToken(token);
    if (!order || !order.tds_version) return notFound(reply);
    const form = readPageForm(request.body);
    const password = form?.get('password') ?? '';
    if (password === '' && engine.issuerPageOpen(order)) return html(reply, 400, issuerPage(order, true));
    const result = engine.completeIssuerPage(
      token,
      constantTimeEqual(password, THREE_DS_PASSWORD),
      engine.options.clock(),
    );
    if (!result)
      return html(
        reply,
        409,
        messagePage('Nothing to authenticate', 'This 3-D Secure authentication is already complete.'),
      );
    if (result.mode === 'form') return customerReturn(reply, result.order);
    const o = result.order;
    const params: Array<[string, string]> =
      result.mode === 'pares'
        ? [
            ['PaRes', result.message!],
            ['MD', String(o.id)],
            ['orderid', String(o.id)],
            ['client_orderid', o.client_orderid],
          ]
        : [
            ['cres', result.message!],
            ['threeDSServerTransID', o.tds_trans_id ?? ''],
            ['orderid', String(o.id)],
            ['client_orderid', o.client_orderid],
          ];
    const action = returnAddress(o.redirect_url);
    if (!action) return html(reply, 200, resultPage('3-D Secure done: upload this result', params));
    return postBack(reply, action, params);
  });

  app.get<{ Params: { token: string } }>('/paynet/3ds/method/:token', PAGE, async (request, reply) => {
    const order = engine.recordMethodPage(request.params.token, engine.options.clock());
    if (!order) return notFound(reply);
    return html(
      reply,
      200,
      messagePage('3-D Secure Method', 'Browser data collected. The merchant now uploads the Method result.'),
    );
  });
}
