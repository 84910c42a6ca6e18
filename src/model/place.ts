import { findOperation, type Operation } from '../catalog/index.ts';
import type { DraftValue, PlaceRef, RequestDraft, ResolvedDraft } from './request-draft.ts';

/**
 * Where a draft is used: this console's origin, this session's callback inbox and the active
 * profile's login. Made by the app (or the CLI) at use time; never stored in a draft.
 */
export interface Place {
  /** `http://127.0.0.1:4173`: the console's own origin, whatever port it runs on. */
  origin: string;
  /** This session's callback inbox, e.g. `http://127.0.0.1:4173/callbacks/s-…`. */
  inboxUrl: string;
  /** The active profile's merchant login. */
  login: string;
}

/** The console's page the gateway sends the customer back to. */
export function returnUrlOf(place: Place): string {
  return `${place.origin}/return`;
}

export function placeValue(ref: PlaceRef, place: Place): string {
  switch (ref) {
    case 'login':
      return place.login;
    case 'return-url':
      return returnUrlOf(place);
    case 'callback-url':
      return place.inboxUrl;
  }
}

// A withheld value is empty until it is typed again: it is left out, and a send refuses it.
function resolveValue(v: DraftValue, place: Place): string {
  return typeof v === 'string' ? v : 'place' in v ? placeValue(v.place, place) : '';
}

/**
 * The draft with its placeholders resolved for this place. A field filled from the profile that
 * the draft does not mention takes the profile's login (as a new form does).
 */
export function resolveDraft(draft: RequestDraft, place: Place): ResolvedDraft {
  const op = findOperation(draft.operation);
  const values: Record<string, string> = {};
  const fromProfile = new Set<string>();
  for (const f of op?.fields ?? []) {
    if (f.fromProfile === 'login' && !Object.hasOwn(draft.values, f.name)) {
      values[f.name] = place.login;
      fromProfile.add(f.name);
    }
  }
  for (const [name, v] of Object.entries(draft.values)) {
    values[name] = resolveValue(v, place);
    if (typeof v !== 'string' && 'place' in v && v.place === 'login') fromProfile.add(name);
  }
  return {
    operation: draft.operation,
    ...(draft.scheme ? { scheme: draft.scheme } : {}),
    ...(draft.formula ? { formula: draft.formula.map((t) => ({ ...t })) } : {}),
    values,
    extras: draft.extras.map((e) => ({ name: e.name, value: resolveValue(e.value, place) })),
    ...(draft.endpoint ? { endpoint: { ...draft.endpoint } } : {}),
    ...(draft.pinned ? { pinned: { ...draft.pinned } } : {}),
    ...(draft.target !== undefined ? { target: draft.target } : {}),
    fromProfile,
  };
}

/**
 * The reverse of resolving, for values typed or filled in at this place: the profile's login in a
 * login field, this console's return page and this session's inbox become placeholders again, so
 * that the draft opened elsewhere (a share link, another port) points at that place instead.
 */
export function placeholderFor(
  op: Operation | undefined,
  name: string,
  value: string,
  place: Place,
): DraftValue {
  if (value === '') return value;
  const spec = op?.fields.find((f) => f.name === name);
  if (spec?.fromProfile === 'login') return value === place.login ? { place: 'login' } : value;
  if (value === place.inboxUrl) return { place: 'callback-url' };
  if (value === returnUrlOf(place)) return { place: 'return-url' };
  return value;
}
