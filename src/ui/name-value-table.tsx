/** Names and values as a two-column table: an answer's headers, the fields a customer came back with. */
export function NameValueTable({
  label,
  rows,
}: {
  label: string;
  rows: ReadonlyArray<readonly [string, string]>;
}) {
  return (
    <table className="wb-table" aria-label={label}>
      <tbody>
        {rows.map(([name, value], i) => (
          // A name may come twice (a repeated field): the position is the row's identity.
          <tr key={i}>
            <th scope="row">
              <code>{name}</code>
            </th>
            <td>
              <code className="wb-value">{value}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
