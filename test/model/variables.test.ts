/**
 * Issue 33 §1: `{{name}}` in any value, resolved before signing from sources in precedence order,
 * with where each value came from; an unresolved variable blocks the send and names itself; a kept
 * (masked) draft keeps its variables. SHA-1 of the signed input checked with node:crypto.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildDraft, emptyDraft, type RequestDraft } from '../../src/model/index.ts';
import { isExchangeRefused, prepareExchange } from '../../src/model/exchange.ts';
import { maskDraft } from '../../src/model/mask-draft.ts';
import { encodeShareLink, decodeShareLink } from '../../src/model/share-link.ts';
import { applyVariables, variablesIn, type VariableSource } from '../../src/model/variables.ts';
import { answerField } from '../../src/model/variable-words.ts';
import { CONTROL_KEY, signingEnv } from './signing-env.ts';

const sale: RequestDraft = {
  ...emptyDraft('v2/sale'),
  values: {
    client_orderid: 'order-{{run}}-{{ n }}',
    amount: '{{amount}}',
    email: '{{email}}',
    currency: 'EUR',
    credit_card_number: '{{card_number}}',
    cvv2: '{{cvv}}',
  },
  extras: [{ name: 'note', value: '{{_.note}}' }],
};

const env: VariableSource = {
  kind: 'environment',
  name: 'Local sandbox',
  values: {
    amount: '10.42',
    email: 'a@example.com',
    card_number: '4444444444444448',
    cvv: '123',
    run: 'env',
  },
};
const answers: VariableSource = { kind: 'answer', name: 'step 1', values: { run: 'r7' } };
const collection: VariableSource = {
  kind: 'collection',
  name: 'Checkout',
  values: { n: '1', note: 'hi', amount: '99.00' },
};

describe('variables in a draft', () => {
  it('lists the names used, in order, in Postman’s and Insomnia’s spellings', () => {
    expect(variablesIn(sale)).toEqual(['run', 'n', 'amount', 'email', 'card_number', 'cvv', 'note']);
  });

  it('resolves from the first source that defines a name, and says where each came from', () => {
    const r = applyVariables(sale, [answers, env, collection]);
    expect(r.unresolved).toEqual([]);
    expect(r.draft.values.client_orderid).toBe('order-r7-1');
    expect(r.draft.values.amount).toBe('10.42');
    expect(r.draft.extras).toEqual([{ name: 'note', value: 'hi' }]);
    expect(r.uses.find((u) => u.param === 'amount')).toEqual({
      param: 'amount',
      variable: 'amount',
      shown: '10.42',
      source: { kind: 'environment', name: 'Local sandbox' },
    });
    expect(r.uses.filter((u) => u.param === 'client_orderid').map((u) => u.source.kind)).toEqual([
      'answer',
      'collection',
    ]);
  });

  it('a value is put in once: a value holding {{x}} is not resolved again', () => {
    const r = applyVariables({ ...emptyDraft('v2/sale'), values: { email: '{{a}}' } }, [
      { kind: 'environment', name: 'e', values: { a: '{{b}}', b: 'no' } },
    ]);
    expect(r.draft.values.email).toBe('{{b}}');
  });

  it('a secret source is masked in what the signing pane shows', () => {
    const r = applyVariables({ ...emptyDraft('v2/sale'), values: { email: '{{k}}' } }, [
      { kind: 'secret', name: 'e', values: { k: 'SECRET-VALUE' } },
    ]);
    expect(r.uses[0]!.shown).toBe('••••');
    expect(JSON.stringify(r.uses)).not.toContain('SECRET-VALUE');
  });

  it('the resolved draft signs over the resolved values (node:crypto SHA-1)', async () => {
    const r = applyVariables(sale, [answers, env, collection]);
    const built = await buildDraft(r.draft, signingEnv());
    const expected = createHash('sha1').update(`1111order-r7-11042a@example.com${CONTROL_KEY}`).digest('hex');
    expect(built.signing.signature).toBe(expected);
  });

  it('an unresolved variable blocks the send and names itself', async () => {
    const r = applyVariables(sale, [collection]);
    expect(r.unresolved).toEqual(['run', 'email', 'card_number', 'cvv']);
    const refused = await prepareExchange(r.draft, signingEnv()).catch((e: unknown) => e);
    expect(isExchangeRefused(refused) && refused.code).toBe('SEND_UNRESOLVED_VARIABLES');
    expect((refused as Error).message).toContain(
      '{{run}}, {{email}}, {{card_number}} and {{cvv}} have no value',
    );
  });

  it('kept drafts (saved, history, share link) keep their variables, even in card fields', () => {
    const masked = maskDraft(sale);
    expect(masked.values.credit_card_number).toBe('{{card_number}}');
    expect(masked.values.cvv2).toBe('{{cvv}}');
    expect(decodeShareLink(encodeShareLink(sale))).toEqual(sale);
    // A real card number in a card field is still withheld.
    expect(
      maskDraft({ ...sale, values: { ...sale.values, credit_card_number: '4444444444444448' } }).values
        .credit_card_number,
    ).toEqual({ withheld: 'card-number' });
  });

  it('reads an answer field from JSON and form-encoded answers', () => {
    expect(answerField('', { 'paynet-order-id': 123 }, 'paynet-order-id')).toBe('123');
    expect(answerField('type=async-response&paynet-order-id=77&x=a+b', undefined, 'paynet-order-id')).toBe(
      '77',
    );
    expect(answerField('x=a+b', undefined, 'x')).toBe('a b');
  });
});
