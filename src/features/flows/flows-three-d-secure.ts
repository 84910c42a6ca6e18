import type { FlowDefinition } from './flow-types.ts';
import { ACK, AMOUNT, BROWSER, CURRENCY, ORDER, sale, TDS } from './flow-templates.ts';

/** 3-D Secure 1.0.2: the issuer page, then the PaRes. */
export const SALE_3DS_1: FlowDefinition = {
  id: 'sale-3ds-1',
  title: 'Sale with 3-D Secure 1.0.2',
  summary:
    'A sale that needs the cardholder at the issuer: status points to the issuer page, the customer comes back with a PaRes, and the merchant uploads it.',
  inputs: [AMOUNT('10.42'), CURRENCY],
  freshIds: ['order'],
  steps: [
    {
      kind: 'request',
      id: 'sale',
      title: 'Sale (CVV 321, no browser fields)',
      explain:
        'On the sandbox CVV 321 asks for 3-D Secure; without 3DS 2 browser fields the version is 1.0.2.',
      operation: 'v2/sale',
      values: sale('321', { redirect_url: '{env.returnUrl}' }),
      save: ACK,
    },
    {
      kind: 'status',
      id: 'issuer-address',
      title: 'Wait for the issuer page (redirect-to)',
      explain: 'For 3DS the customer is redirected to the issuer access-control server.',
      order: ORDER,
      until: 'redirect-to',
      save: { issuerUrl: 'redirect-to' },
    },
    {
      kind: 'customer',
      id: 'issuer',
      title: 'Customer authenticates at the issuer',
      explain:
        'The customer enters the password (sandbox: hint) and is sent back to redirect_url with PaRes.',
      url: '{issuerUrl}',
      clientOrderId: '{order}',
      returns: 'PaRes',
      save: { paRes: 'PaRes' },
    },
    {
      kind: 'request',
      id: 'upload-pares',
      title: 'Upload the PaRes',
      explain: 'The 3DS 1.0.2 flow uses a single PaRes upload.',
      operation: '3ds/v1/upload-pares-result',
      values: { ...TDS, paRes: '{paRes}' },
    },
    {
      kind: 'status',
      id: 'sale-final',
      title: 'Wait for the final status',
      explain: 'The outcome of the sale, after authentication.',
      order: ORDER,
      until: 'final',
      expect: ['approved'],
    },
  ],
};

/** 3-D Secure 2: the method URL and its result, the challenge, then the CRes. */
export const SALE_3DS_2: FlowDefinition = {
  id: 'sale-3ds-2',
  title: 'Sale with 3-D Secure 2',
  summary:
    'A 3DS 2 sale: the browser loads the 3DS Method URL, the merchant uploads the method result (threeDSCompInd), the customer passes the challenge, and the merchant uploads the CRes.',
  inputs: [AMOUNT('10.42'), CURRENCY],
  freshIds: ['order'],
  steps: [
    {
      kind: 'request',
      id: 'sale',
      title: 'Sale (CVV 321, threeds_version=2, browser fields)',
      explain: 'The 3DS 2 browser fields (and threeds_version=2) make the sandbox run 3-D Secure 2.',
      operation: 'v2/sale',
      values: sale('321', { threeds_version: '2', ...BROWSER, redirect_url: '{env.returnUrl}' }),
      save: ACK,
    },
    {
      kind: 'status',
      id: 'method-address',
      title: 'Wait for the 3DS Method URL',
      explain: 'Status carries the Method URL and the 3DS server transaction id first.',
      order: ORDER,
      until: 'method-url',
      save: { methodUrl: 'threeds-method-url', transId: 'threeds-server-trans-id' },
    },
    {
      kind: 'method',
      id: 'method',
      title: 'Load the 3DS Method URL in a hidden frame',
      explain: 'The browser fingerprinting step; it must complete within 10 seconds of the sale.',
      url: '{methodUrl}',
    },
    {
      kind: 'request',
      id: 'upload-method',
      title: 'Upload the method result (threeDSCompInd Y)',
      explain: '3DS 2 order of uploads: the method-url result first, then the challenge result.',
      operation: '3ds/v1/upload-method-url-result',
      values: { ...TDS, threeDSCompInd: 'Y', threeDSServerTransID: '{transId}', ...BROWSER },
      hope: { 'threeds-comp-ind': 'Y' },
    },
    {
      kind: 'status',
      id: 'challenge-address',
      title: 'Wait for the challenge page (redirect-to)',
      explain: 'After the method result, status points to the challenge.',
      order: ORDER,
      until: 'redirect-to',
      save: { challengeUrl: 'redirect-to' },
    },
    {
      kind: 'customer',
      id: 'challenge',
      title: 'Customer passes the challenge',
      explain:
        'The customer enters the password (sandbox: hint) and is sent back to redirect_url with the CRes.',
      url: '{challengeUrl}',
      clientOrderId: '{order}',
      returns: 'cres',
      save: { cres: 'cres' },
    },
    {
      kind: 'request',
      id: 'upload-cres',
      title: 'Upload the CRes',
      explain: 'The challenge result comes after the method-url result.',
      operation: '3ds/v1/upload-cres-result',
      values: { ...TDS, cRes: '{cres}' },
    },
    {
      kind: 'status',
      id: 'sale-final',
      title: 'Wait for the final status',
      explain: 'The outcome of the sale, after the challenge.',
      order: ORDER,
      until: 'final',
      expect: ['approved'],
    },
  ],
};
