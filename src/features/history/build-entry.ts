import { findOperation, parseResponse } from '../../catalog/index.ts';
import type { Exchange, FormPreset } from '../../shared/contracts/contracts.ts';
import type { HistoryEntry } from './history-schema.ts';
import { isCvvName, isPanName, maskExchange } from './mask-exchange.ts';

const ORDER_ID_NAMES = ['client_orderid', 'client-order-id', 'client-orderid'];

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describeOutcome(ex: Exchange): { outcome: string | null; orderId: string | null } {
  if (!ex.response) return { outcome: ex.error ? 'not sent' : null, orderId: null };
  const op = findOperation(ex.operationPath);
  const body = parseJson(ex.response.body);
  const loose = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const orderId = typeof loose['paynet-order-id'] === 'string' ? loose['paynet-order-id'] : null;
  if (op && body !== undefined) {
    const { result } = parseResponse(op.response, ex.response.status, body);
    if (result.success) {
      const data = result.data as Record<string, unknown>;
      const status =
        typeof data.status === 'string' ? data.status : typeof data.type === 'string' ? data.type : null;
      return { outcome: status, orderId };
    }
  }
  if (ex.response.status === 403) return { outcome: 'forbidden', orderId };
  return { outcome: typeof loose.type === 'string' ? loose.type : `HTTP ${ex.response.status}`, orderId };
}

/** The stored form of an exchange: masked first, then described for the list. */
export function buildEntry(ex: Exchange, id: string): HistoryEntry {
  const { exchange, masked } = maskExchange(ex);
  const { outcome, orderId } = describeOutcome(exchange);
  const clientOrderId = exchange.request.body.find((p) => ORDER_ID_NAMES.includes(p.name))?.value ?? null;
  return {
    version: 1,
    id,
    operationPath: exchange.operationPath,
    profileName: exchange.profileName,
    targetName: exchange.targetName,
    sentAt: exchange.sentAt,
    clientOrderId,
    orderId,
    outcome,
    request: exchange.request,
    ...(exchange.response ? { response: exchange.response } : {}),
    ...(exchange.error !== undefined ? { error: exchange.error } : {}),
    masked,
  };
}

const ENDPOINT_IN_URL = /\/api\/.+?\/(group\/)?(\d+)\/?$/;

/** The form values to reopen an entry with; card fields come back empty, never with their masked values. */
export function toFormPreset(entry: HistoryEntry): FormPreset {
  const op = findOperation(entry.operationPath);
  const fieldNames = new Set(op?.fields.map((f) => f.name) ?? []);
  const values: Record<string, string> = {};
  const extras: Array<{ name: string; value: string }> = [];
  for (const spec of op?.fields ?? []) if (spec.sensitive) values[spec.name] = '';
  for (const pair of entry.request.body) {
    if (pair.name === 'control') continue;
    const unsafe =
      entry.masked.includes(pair.name) || isPanName(pair.name, entry.operationPath) || isCvvName(pair.name);
    if (fieldNames.has(pair.name)) values[pair.name] = unsafe ? '' : pair.value;
    else if (!unsafe) extras.push({ name: pair.name, value: pair.value });
  }
  const m = ENDPOINT_IN_URL.exec(entry.request.url);
  return {
    operationPath: entry.operationPath,
    values,
    ...(extras.length > 0 ? { extras } : {}),
    ...(m ? { endpoint: { kind: m[1] ? ('group' as const) : ('endpoint' as const), id: m[2]! } } : {}),
  };
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
