import { z } from 'zod';
import { callbackControl, type CryptoPort } from '../../src/core/index.ts';
import { REPLAY_MUTATIONS } from '../../src/contracts/scenario-lab.ts';

/**
 * How a recorded callback can be replayed: as it was, with a wrong `control`, with another amount
 * (`amount` is not signed: only a status call tells the truth), as a duplicate, or stale (an
 * earlier status, `processing`, correctly signed).
 */
export const MUTATIONS = REPLAY_MUTATIONS;
export type Mutation = (typeof MUTATIONS)[number];
export const MutationSchema = z.enum(MUTATIONS);

/** A wrong control that still looks like one: the right formula over another key. */
export async function forgedControl(q: URLSearchParams, crypto: CryptoPort): Promise<string> {
  return callbackControl(
    {
      status: q.get('status') ?? '',
      orderid: q.get('orderid') ?? '',
      merchantOrder: q.get('merchant_order') ?? '',
    },
    'not-the-merchant-control-key',
    crypto,
  );
}

/** The URL a replay sends. */
export async function mutate(
  sent: URL,
  mutation: Mutation,
  controlKey: string,
  crypto: CryptoPort,
): Promise<URL> {
  const url = new URL(sent);
  const q = url.searchParams;
  switch (mutation) {
    case 'as-is':
    case 'duplicate':
      return url;
    case 'bad-control':
      q.set('control', await forgedControl(q, crypto));
      return url;
    case 'amount': {
      const cents = Math.round(Number(q.get('amount') ?? '0') * 100) + 100;
      q.set('amount', `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`);
      return url;
    }
    case 'stale':
      q.set('status', 'processing');
      q.delete('error_message');
      q.delete('error_code');
      q.delete('error_reason');
      q.set(
        'control',
        await callbackControl(
          {
            status: 'processing',
            orderid: q.get('orderid') ?? '',
            merchantOrder: q.get('merchant_order') ?? '',
          },
          controlKey,
          crypto,
        ),
      );
      return url;
  }
}
