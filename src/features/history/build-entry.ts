import { findOperation, CLIENT_ORDER_ID_NAMES } from '../../catalog/index.ts';
import { encodeFormBody } from '../../core/index.ts';
import { draftFromCapture } from '../../model/import-draft.ts';
import { withhold } from '../../model/mask-draft.ts';
import { emptyDraft, type RequestDraft } from '../../model/index.ts';
import { readAnswer } from '../../model/read-answer.ts';
import type { Exchange } from '../../model/exchange.ts';
import { NOT_SENT_LABEL, UNKNOWN_LABEL } from '../../model/send-certainty.ts';
import type { HistoryEntry } from './history-schema.ts';
import { isCvvName, isPanName, maskExchange } from './mask-exchange.ts';

function describeOutcome(ex: Exchange): { outcome: string | null; orderId: string | null } {
  // The model decided (send-certainty.ts): a failure after the body left is an open question.
  if (ex.certainty === 'unknown') return { outcome: UNKNOWN_LABEL, orderId: null };
  if (!ex.response) return { outcome: ex.error ? NOT_SENT_LABEL : null, orderId: null };
  const op = findOperation(ex.operationPath);
  const answer = readAnswer(op ?? { response: 'AsyncResponse' }, ex.response.status, ex.response.body);
  const body = answer.json && typeof answer.json === 'object' ? (answer.json as Record<string, unknown>) : {};
  const id = body['paynet-order-id'];
  // v4 sale answers the id as a number.
  const orderId = typeof id === 'string' ? id : typeof id === 'number' ? String(id) : null;
  if (op && answer.isJson && answer.schemaOk)
    return { outcome: answer.status ?? answer.type ?? null, orderId };
  if (answer.httpStatus === 403) return { outcome: 'forbidden', orderId };
  return { outcome: answer.type ?? `HTTP ${answer.httpStatus}`, orderId };
}

/** The stored form of an exchange: masked first, then described for the list. */
export function buildEntry(ex: Exchange, id: string): HistoryEntry {
  const { exchange, masked } = maskExchange(ex);
  const { outcome, orderId } = describeOutcome(exchange);
  const clientOrderId =
    exchange.request.body.find((p) => CLIENT_ORDER_ID_NAMES.includes(p.name))?.value ?? null;
  return {
    version: 1,
    id,
    operationPath: exchange.operationPath,
    ...(exchange.draft ? { draft: exchange.draft } : {}),
    profileName: exchange.profileName,
    targetName: exchange.targetName,
    sentAt: exchange.sentAt,
    clientOrderId,
    orderId,
    outcome,
    request: exchange.request,
    ...(exchange.response ? { response: exchange.response } : {}),
    ...(exchange.error !== undefined ? { error: exchange.error } : {}),
    ...(ex.automatic ? { automatic: true as const } : {}),
    masked,
  };
}

/**
 * The request to reopen an entry with: its stored draft, where every value masked or dropped
 * before storage is withheld (card fields come back empty, never with their masked values, and a
 * send asks for them first). An entry stored before the request model is read back like a capture.
 */
export function draftOfEntry(entry: HistoryEntry): RequestDraft {
  // Drafts stored before withheld values were marked lack them: the entry's `masked` still names them.
  return withhold(entry.draft ?? draftOfCapture(entry), entry.masked);
}

function draftOfCapture(entry: HistoryEntry): RequestDraft {
  const unsafe = (name: string) =>
    entry.masked.includes(name) || isPanName(name, entry.operationPath) || isCvvName(name);
  let draft: RequestDraft;
  try {
    draft = draftFromCapture({
      method: entry.request.method,
      url: entry.request.url,
      headers: Object.fromEntries(entry.request.headers.map((h) => [h.name.toLowerCase(), h.value])),
      body: encodeFormBody(entry.request.body.map((p) => (unsafe(p.name) ? { name: p.name, value: '' } : p))),
    }).draft;
  } catch {
    return emptyDraft(entry.operationPath);
  }
  draft = withhold(
    draft,
    entry.request.body.filter((p) => unsafe(p.name) && p.value !== '').map((p) => p.name),
  );
  const pinned = entry.request.pinned;
  const { pinned: _captured, ...rest } = draft;
  return pinned?.nonce !== undefined && pinned.timestamp !== undefined
    ? { ...rest, pinned: { nonce: pinned.nonce, timestamp: pinned.timestamp } }
    : rest;
}

export function matchesSearch(entry: HistoryEntry, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === '') return true;
  const hay = [
    entry.operationPath,
    entry.clientOrderId ?? '',
    entry.orderId ?? '',
    entry.outcome ?? '',
    entry.response ? String(entry.response.status) : '',
    entry.targetName,
    entry.profileName,
    entry.sentAt,
    new Date(entry.sentAt).toLocaleString(),
  ]
    .join('\n')
    .toLowerCase();
  return q.split(/\s+/).every((word) => hay.includes(word));
}
