import { OPERATIONS, SCHEME_TITLES } from '../catalog/index.ts';
import { groupOperations } from './catalog-search.ts';
import { onLinkClick, opHref } from './router.ts';

export function HomePage() {
  return (
    <section className="home" aria-labelledby="home-title">
      <h1 id="home-title">Operations</h1>
      <p>
        Pick an operation: its form signs the request live, shows the signing input, the signature and the raw
        request, and sends it through this console's server to the profile's target.
      </p>
      {groupOperations(OPERATIONS).map((g) => (
        <section className="home-group" key={g.group} aria-labelledby={`home-${g.group}`}>
          <h2 id={`home-${g.group}`}>{g.title}</h2>
          <ul className="home-ops">
            {g.ops.map((o) => (
              <li key={o.path}>
                <a href={opHref(o.path)} onClick={(e) => onLinkClick(e, opHref(o.path))}>
                  <span className="home-op-title">{o.title}</span>
                  <span className="home-op-meta">
                    <code>{o.path}</code> · {SCHEME_TITLES[o.scheme]}
                    {o.schemeSource === 'unsure' || o.formulaSource === 'unsure' ? ' · unsure' : ''}
                    {o.formulaSource === 'gateway-notes' ? ' · formula from gateway notes' : ''}
                    {o.exampleOnly ? ' · example only' : ''}
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
