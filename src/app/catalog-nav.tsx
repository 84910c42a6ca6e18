import { useId, useMemo, useState } from 'react';
import { OPERATIONS } from '../catalog/index.ts';
import { groupOperations, matchesQuery, navPathNote } from './catalog-search.ts';
import { onLinkClick, opHref } from './router.ts';

export function CatalogNav({ current }: { current: string | null }) {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const searchId = useId();
  const groups = useMemo(() => groupOperations(OPERATIONS.filter((o) => matchesQuery(o, query))), [query]);
  const count = groups.reduce((n, g) => n + g.ops.length, 0);
  return (
    <nav className="nav" aria-label="Operations" data-open={open}>
      <button
        type="button"
        className="ui-btn nav-toggle"
        aria-expanded={open}
        aria-controls="nav-list"
        onClick={() => setOpen(!open)}
      >
        {open ? 'Hide operations' : 'Show operations'}
      </button>
      <div className="nav-list" id="nav-list">
        <label htmlFor={searchId} className="ui-visually-hidden">
          Search operations
        </label>
        <input
          id={searchId}
          className="nav-search"
          type="search"
          placeholder="Search: title, path, id"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          aria-describedby={`${searchId}-count`}
        />
        <p className="nav-count" id={`${searchId}-count`} aria-live="polite">
          {count === OPERATIONS.length
            ? `${count} operations`
            : `${count} of ${OPERATIONS.length} operations`}
        </p>
        {groups.map((g) => (
          <div role="group" className="nav-group" key={g.group} aria-labelledby={`nav-${g.group}`}>
            <h2 id={`nav-${g.group}`}>{g.title}</h2>
            <ul>
              {g.ops.map((o) => (
                <li key={o.path}>
                  <a
                    href={opHref(o.path)}
                    aria-current={current === o.path ? 'page' : undefined}
                    onClick={(e) => {
                      onLinkClick(e, opHref(o.path));
                      setOpen(false);
                    }}
                  >
                    {o.title}
                    <span className="nav-path">
                      {o.path}
                      {navPathNote(o)}
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </nav>
  );
}
