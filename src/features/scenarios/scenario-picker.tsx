import { errorText } from '../../core/errors.ts';
import { useEffect, useState } from 'react';
import {
  formatScenarioHeader,
  maxDelayOf,
  SCENARIOS,
  type ScenarioChoice,
  type ScenarioName,
} from '../../catalog/scenarios.ts';
import { chooseScenarios, labState } from '../../browser/sandbox-lab.ts';
import { InlineCode } from '../../ui/inline-code.tsx';

/** What is wrong with a typed `delay-ms`, or '' when it is empty (the default) or usable. */
export function delayProblem(name: ScenarioName, typed: string): string {
  const text = typed.trim();
  if (text === '') return '';
  if (!/^\d{1,11}$/.test(text)) return 'delay-ms is a whole number of milliseconds.';
  const max = maxDelayOf(name);
  return Number(text) > max ? `delay-ms is at most ${max} for this scenario.` : '';
}

/** Choose the merchant's scenarios, each with its own `delay-ms` when it takes one. */
export function ScenarioPicker({ login }: { login: string }) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [delays, setDelays] = useState<Readonly<Record<string, string>>>({});
  const [note, setNote] = useState('');
  useEffect(() => {
    labState().then(
      (s) => {
        const choice = s.merchants.find((m) => m.login === login)?.choice ?? [];
        setChosen(new Set(choice.map((p) => p.name)));
        setDelays(
          Object.fromEntries(
            choice.flatMap((p) => (p.delayMs === undefined ? [] : [[p.name, String(p.delayMs)]])),
          ),
        );
      },
      (e: unknown) => setNote(errorText(e)),
    );
  }, [login]);
  const problems = SCENARIOS.filter((s) => chosen.has(s.name)).some(
    (s) => delayProblem(s.name, delays[s.name] ?? '') !== '',
  );
  const apply = () => {
    const choice = SCENARIOS.filter((s) => chosen.has(s.name)).map((s) => {
      const typed = (delays[s.name] ?? '').trim();
      return 'defaultDelayMs' in s && typed !== ''
        ? { name: s.name, delayMs: Number(typed) }
        : { name: s.name };
    }) as ScenarioChoice;
    chooseScenarios(login, choice).then(
      (r) =>
        setNote(
          r.choice.length === 0
            ? `No scenario for ${login}: the happy path.`
            : `Chosen for ${login}: ${formatScenarioHeader(r.choice)}.`,
        ),
      (e: unknown) => setNote(errorText(e)),
    );
  };
  const toggle = (name: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(name);
    else next.delete(name);
    setChosen(next);
  };
  return (
    <section aria-labelledby="sc-pick">
      <h2 id="sc-pick">Scenarios for {login}</h2>
      <p className="wb-hint">
        One request can choose its own with the header <code>X-Sandbox-Scenario: latency;delay-ms=250</code>.
      </p>
      <fieldset>
        <legend>Faults the sandbox produces (at most four)</legend>
        {SCENARIOS.map((s) => {
          const problem = delayProblem(s.name, delays[s.name] ?? '');
          return (
            <div key={s.name} className="sc-item">
              <label>
                <input
                  type="checkbox"
                  checked={chosen.has(s.name)}
                  onChange={(e) => toggle(s.name, e.target.checked)}
                />{' '}
                {s.title} <code>{s.name}</code>
              </label>
              {'defaultDelayMs' in s ? (
                <>
                  {' '}
                  <label>
                    delay-ms{' '}
                    <input
                      inputMode="numeric"
                      size={10}
                      value={delays[s.name] ?? ''}
                      placeholder={String(s.defaultDelayMs)}
                      aria-invalid={problem !== ''}
                      aria-describedby={problem ? `sc-delay-${s.name}` : undefined}
                      aria-label={`delay-ms for ${s.name}`}
                      onChange={(e) => setDelays({ ...delays, [s.name]: e.target.value })}
                    />
                  </label>
                  {problem ? (
                    <span id={`sc-delay-${s.name}`} className="wb-bad">
                      {' '}
                      {problem}
                    </span>
                  ) : null}
                </>
              ) : null}
              <details>
                <summary>What it does, what a correct merchant does</summary>
                <p>
                  <InlineCode text={s.gateway} />
                </p>
                <p>
                  <InlineCode text={s.merchant} />
                </p>
                <blockquote>
                  <InlineCode text={s.rule.quote} />{' '}
                  <cite>
                    (<InlineCode text={s.rule.source} />, {s.rule.section})
                  </cite>
                </blockquote>
              </details>
            </div>
          );
        })}
      </fieldset>
      <button type="button" className="ui-btn" onClick={apply} disabled={chosen.size > 4 || problems}>
        Apply scenarios
      </button>
      <p role="status">{note}</p>
    </section>
  );
}
