import type { TrainerSnapshot } from './classroom-api.ts';

/**
 * Each trainee's own values (drawn per trainee and exercise) and the answer that passes them: for
 * the trainer's eyes, folded away so that it is not projected by accident.
 */
export function VariantsTable({ s }: { s: TrainerSnapshot }) {
  const rows = s.trainees.flatMap((t) => (t.variants ?? []).map((v) => ({ t, v })));
  if (rows.length === 0) return null;
  const title = (id: string) => s.exercises.find((e) => e.id === id)?.title ?? id;
  return (
    <details className="cl-variants">
      <summary>Variants and expected answers (not for the projector)</summary>
      <div className="cl-table-wrap">
        <table className="cl-table" aria-label="Variants and expected answers">
          <thead>
            <tr>
              <th scope="col">Trainee</th>
              <th scope="col">Exercise</th>
              <th scope="col">Their values</th>
              <th scope="col">Expected answer</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ t, v }) => (
              <tr key={`${t.id}:${v.exerciseId}`} aria-label={`${t.name}: ${title(v.exerciseId)}`}>
                <th scope="row">{t.name}</th>
                <td>{title(v.exerciseId)}</td>
                <td>{v.values}</td>
                <td>{v.expected}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
