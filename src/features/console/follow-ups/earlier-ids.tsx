import { useMemo, useState } from 'react';
import { findOperation, type Operation } from '../../../catalog/index.ts';
import { candidatesFor, describeOrder, idValuesFor, sourcesOf } from './recent-ids.ts';
import { recentOrders, useRecentOrders } from './recent-ids-store.ts';

/** The ids "Fill with test data" puts in: those of this session's best fitting answer, if any. */
export function bestEarlierIds(op: Operation): Record<string, string> {
  const best = candidatesFor(op, recentOrders())[0];
  return best ? idValuesFor(op, best) : {};
}

/** The picker of ids from this session's answers, next to the id fields. */
export function EarlierIds({
  op,
  onUse,
}: {
  op: Operation;
  onUse: (values: Record<string, string>) => void;
}) {
  const recent = useRecentOrders();
  const earlier = useMemo(() => candidatesFor(op, recent), [op, recent]);
  const [picked, setPicked] = useState('');
  if (earlier.length === 0) {
    const from = [...sourcesOf(op.path)]
      .map((p) => findOperation(p)?.title)
      .filter((t): t is string => t !== undefined)
      .slice(0, 3);
    return (
      <p className="wb-hint wb-earlier">
        No answer of this session has ids for this form yet
        {op.path.startsWith('3ds/')
          ? ': send a sale with the 3-D Secure CVV and poll its status until it asks for this upload.'
          : from.length > 0 && op.path !== 'v2/status'
            ? `: send ${from.join(' or ')} first.`
            : ': send a payment first.'}{' '}
        Its ids then fill this form.
      </p>
    );
  }
  return (
    <div className="wb-earlier">
      <label htmlFor="wb-earlier">Ids from this session’s answers</label>
      <select
        id="wb-earlier"
        value={picked}
        onChange={(e) => {
          setPicked(e.target.value);
          const o = earlier[Number(e.target.value)];
          if (e.target.value !== '' && o) onUse(idValuesFor(op, o));
        }}
      >
        <option value="">Pick an earlier order ({earlier.length})…</option>
        {earlier.map((o, i) => (
          <option key={`${o.orderId ?? ''}|${o.clientOrderId ?? ''}|${o.cardRefId ?? ''}`} value={String(i)}>
            {describeOrder(o, (iso) => new Date(iso).toLocaleTimeString())}
          </option>
        ))}
      </select>
    </div>
  );
}
