import type { OperationId } from '../../src/catalog/index.ts';
import type { Handler } from './context.ts';
import { ephemeralTicket, hostedFieldsSale } from './hosted-fields.ts';
import { hostedForm } from './hosted-pages.ts';
import {
  cardInfo,
  cardPayment,
  createCardRef,
  panEligibility,
  payout,
  rebill,
  recurring,
  transfer,
} from './order-operations.ts';
import { settlementHandler } from './settlement.ts';
import { status } from './status-body.ts';
import { uploadChallengeResult, uploadMethodResult } from './three-ds.ts';
import { bankWireTransfer, syncAccountVerification, transferByRef } from './vendor-client-operations.ts';

/**
 * One handler per catalog operation. The key type is the catalog's id union: an operation added to
 * the catalog without a handler here, or a misspelt id, does not compile.
 */
export const HANDLERS: { readonly [K in OperationId]: Handler } = {
  SALE: (x, c) => cardPayment(x, c, 'sale'),
  SALE_V4: hostedFieldsSale,
  EPHEMERAL_TICKET_V4: ephemeralTicket,
  PREAUTH: (x, c) => cardPayment(x, c, 'preauth'),
  ACCOUNT_VERIFICATION: (x, c) => cardPayment(x, c, 'account-verification'),
  SALEFORM: (x, c) => hostedForm(x, c, 'sale'),
  PAYMENTFORM: (x, c) => hostedForm(x, c, 'sale'),
  PREAUTHFORM: (x, c) => hostedForm(x, c, 'preauth'),
  ACCOUNT_VERIFICATION_FORM: (x, c) => hostedForm(x, c, 'account-verification'),
  PAYOUTFORM: (x, c) => hostedForm(x, c, 'payout'),
  CAPTURE: settlementHandler('CAPTURE'),
  VOID: settlementHandler('VOID'),
  RETURN: settlementHandler('RETURN'),
  PAYOUT_V4_PAY: settlementHandler('PAYOUT_V4_PAY'),
  CARDREF: createCardRef,
  CARDREF_V4: createCardRef,
  CARDINFO: cardInfo,
  REBILL: rebill,
  REBILL_SALE: (x, c) => rebill(x, c, 'sale'),
  REBILL_PREAUTH: (x, c) => rebill(x, c, 'preauth'),
  TRANSFER_BY_REF: transferByRef,
  SYNC_ACCOUNT_VERIFICATION: syncAccountVerification,
  BANK_WIRE_TRANSFER: bankWireTransfer,
  STATUS: status,
  STATUS_V4: status,
  PAYOUT: (x, c) => payout(x, c, 'payout', false),
  PAYOUT_V4_CHECK: (x, c) => payout(x, c, 'payout-check', false),
  PAYOUT_V4: (x, c) => payout(x, c, 'payout', true),
  PAN_ELIGIBILITY_SEND: panEligibility,
  TRANSFER_V4: (x, c) => transfer(x, c, false),
  TRANSFER_BY_REF_V4: (x, c) => transfer(x, c, true),
  CREATE_RP_V4: recurring,
  TDS_UPLOAD_METHOD_URL_RESULT: uploadMethodResult,
  TDS_UPLOAD_CRES_RESULT: (x, c) => uploadChallengeResult(x, c, 'cres'),
  TDS_UPLOAD_PARES_RESULT: (x, c) => uploadChallengeResult(x, c, 'pares'),
};

/** Operations that only read: they run without the write lock (status's longer path in a read transaction). */
export const READ_ONLY: ReadonlySet<OperationId> = new Set<OperationId>(['STATUS', 'STATUS_V4', 'CARDINFO']);
