import { useCallback } from 'react';
import type { FormPreset } from '../shared/contracts.ts';
import { Workbench, type WorkbenchNavigation } from '../features/console/index.ts';
import { HistoryPage, recordExchange } from '../features/history/index.ts';
import { KeysPage } from '../features/keys/index.ts';
import { ProfileBar, useProfileActions, useSigningContext } from '../features/profiles/index.ts';
import { CatalogNav } from './catalog-nav.tsx';
import { HomePage } from './home-page.tsx';
import { ReturnPage } from './return-page.tsx';
import { navigate, onLinkClick, opHref, parseRoute, useLocation } from './router.ts';
import { useThemeChoice, type ThemeChoice } from './theme.ts';

function presetFromState(state: unknown): FormPreset | null {
  if (!state || typeof state !== 'object') return null;
  const p = (state as { preset?: unknown }).preset;
  if (!p || typeof p !== 'object') return null;
  const values = (p as { values?: unknown }).values;
  if (!values || typeof values !== 'object') return null;
  return p as FormPreset;
}

function ThemePicker() {
  const [choice, setChoice] = useThemeChoice();
  return (
    <label className="app-theme">
      Theme
      <select value={choice} onChange={(e) => setChoice(e.target.value as ThemeChoice)}>
        <option value="system">System</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
}

function TopLink({ to, children, current }: { to: string; children: string; current: boolean }) {
  return (
    <li>
      <a href={to} aria-current={current ? 'page' : undefined} onClick={(e) => onLinkClick(e, to)}>
        {children}
      </a>
    </li>
  );
}

export function Shell() {
  const loc = useLocation();
  const route = parseRoute(loc.pathname);
  const { context } = useSigningContext();
  const { setPrivateKeyPem, activeLogin } = useProfileActions();
  const preset = presetFromState(loc.state);

  const goTo = useCallback((to: WorkbenchNavigation) => {
    navigate(opHref(to.operationPath), to.preset ? { preset: to.preset } : null);
  }, []);

  const reopen = useCallback((p: FormPreset) => navigate(opHref(p.operationPath), { preset: p }), []);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-top">
        <a className="app-brand" href="/" onClick={(e) => onLinkClick(e, '/')}>
          pay-console
        </a>
        <nav aria-label="Sections">
          <ul className="app-links">
            <TopLink to="/" current={route.kind === 'home' || route.kind === 'op'}>
              Workbench
            </TopLink>
            <TopLink to="/history" current={route.kind === 'history'}>
              History
            </TopLink>
            <TopLink to="/keys" current={route.kind === 'keys'}>
              Keys
            </TopLink>
          </ul>
        </nav>
        <span className="app-spacer" />
        <ThemePicker />
      </header>
      <ProfileBar />
      <div className="app-body">
        <CatalogNav current={route.kind === 'op' ? route.path : null} />
        <main id="main" className="app-main" tabIndex={-1}>
          {route.kind === 'home' ? <HomePage /> : null}
          {route.kind === 'op' ? (
            <Workbench
              operationPath={route.path}
              context={context}
              preset={preset}
              onExchange={recordExchange}
              onNavigate={goTo}
            />
          ) : null}
          {route.kind === 'history' ? <HistoryPage onReopen={reopen} /> : null}
          {route.kind === 'keys' ? <KeysPage activeLogin={activeLogin} onUseKey={setPrivateKeyPem} /> : null}
          {route.kind === 'return' ? <ReturnPage /> : null}
          {route.kind === 'not-found' ? (
            <section>
              <h1>Not found</h1>
              <p>
                Nothing is at <code>{route.pathname}</code>.{' '}
                <a href="/" onClick={(e) => onLinkClick(e, '/')}>
                  Back to the operations
                </a>
                .
              </p>
            </section>
          ) : null}
        </main>
      </div>
    </>
  );
}
