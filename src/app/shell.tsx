import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { parseDraft, type RequestDraft } from '../model/index.ts';
import { Workbench, type WorkbenchNavigation } from '../features/console/index.ts';
import { readShareFragment } from '../features/exports/index.ts';
import { HistoryPage, recordExchange } from '../features/history/index.ts';
import { useClassroomTrainee } from '../features/classroom/use-classroom-trainee.ts';
import { KeysPage } from '../features/keys/index.ts';
import { ProfileBar, useProfileActions, useSigningContext } from '../features/profiles/index.ts';
import { CatalogNav } from './catalog-nav.tsx';
import { setCurrentRequest } from './current-request.ts';
import { HomePage } from './home-page.tsx';
import { ReturnPage } from './return-page.tsx';
import { ExportsRoute, WorkbenchTools } from './request-tools-bar.tsx';
import { navigate, onLinkClick, opHref, parseRoute, useLocation, type Route } from './router.ts';
import { teachHref } from './routes.ts';
import { runtime, usePlace } from './runtime.ts';
import { useThemeChoice, type ThemeChoice } from './theme.ts';

const DebuggerPage = lazy(() =>
  import('../features/debugger/index.ts').then((m) => ({ default: m.DebuggerPage })),
);
const TeachingPage = lazy(() =>
  import('../features/teaching/index.ts').then((m) => ({ default: m.TeachingPage })),
);
const FlowsPage = lazy(() => import('../features/flows/index.ts').then((m) => ({ default: m.FlowsPage })));
const JoinPage = lazy(() => import('../features/classroom/index.ts').then((m) => ({ default: m.JoinPage })));
const ExercisesPage = lazy(() =>
  import('../features/classroom/index.ts').then((m) => ({ default: m.ExercisesPage })),
);
const TrainerPage = lazy(() =>
  import('../features/classroom/index.ts').then((m) => ({ default: m.TrainerPage })),
);
const loading = <p role="status">Loading…</p>;

/** The draft a navigation carries (history state survives reloads, so it is checked like any input). */
const drafts = new WeakMap<object, RequestDraft>();
function draftFromState(state: unknown): RequestDraft | null {
  if (!state || typeof state !== 'object') return null;
  const d = (state as { draft?: unknown }).draft;
  if (!d || typeof d !== 'object') return null;
  // One parsed draft per state object, so the workbench sees the same draft on every render.
  let parsed = drafts.get(d);
  if (!parsed) {
    parsed = parseDraft(d);
    if (!parsed) return null;
    drafts.set(d, parsed);
  }
  return parsed;
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

/** The sections in the top bar, with the route kinds that count as being in each. */
const SECTIONS: readonly { to: string; label: string; kinds: readonly Route['kind'][] }[] = [
  { to: '/', label: 'Workbench', kinds: ['home', 'op'] },
  { to: '/history', label: 'History', kinds: ['history'] },
  { to: '/keys', label: 'Keys', kinds: ['keys'] },
  { to: '/flows', label: 'Flows', kinds: ['flows'] },
  { to: '/export', label: 'Export', kinds: ['export'] },
  { to: '/debugger', label: 'Debugger', kinds: ['debugger'] },
  { to: '/teach', label: 'Teaching', kinds: ['teach'] },
];

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
  const draft = draftFromState(loc.state);
  const place = usePlace(context?.credentials.login ?? '');
  const trainee = useClassroomTrainee();

  const goTo = useCallback((to: WorkbenchNavigation) => {
    navigate(opHref(to.operationPath), to.draft ? { draft: to.draft } : null);
  }, []);

  const reopen = useCallback((d: RequestDraft) => navigate(opHref(d.operation), { draft: d }), []);
  const teachOn = useCallback((path: string) => navigate(teachHref(path)), []);
  const [shareError, setShareError] = useState<string | null>(null);
  useEffect(() => {
    const openShared = () => {
      const shared = readShareFragment(location.hash);
      if (!shared) return;
      if ('error' in shared) {
        setShareError(shared.error);
        return;
      }
      setShareError(null);
      navigate(opHref(shared.draft.operation), { draft: shared.draft }, true);
    };
    openShared();
    window.addEventListener('hashchange', openShared);
    return () => window.removeEventListener('hashchange', openShared);
  }, []);

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
            {SECTIONS.map((s) => (
              <TopLink key={s.to} to={s.to} current={s.kinds.includes(route.kind)}>
                {s.label}
              </TopLink>
            ))}
            {trainee ? (
              <TopLink to="/classroom" current={route.kind === 'classroom'}>
                Exercises
              </TopLink>
            ) : null}
          </ul>
        </nav>
        <span className="app-spacer" />
        <ThemePicker />
      </header>
      {/* The trainer's page and the join page have no merchant to sign with. */}
      {route.kind === 'trainer' || route.kind === 'join' ? null : <ProfileBar />}
      <div className="app-body">
        {route.kind === 'trainer' || route.kind === 'join' ? null : (
          <CatalogNav current={route.kind === 'op' ? route.path : null} />
        )}
        <main id="main" className="app-main" tabIndex={-1}>
          {shareError ? (
            <p className="app-share-error" role="alert">
              {shareError}
            </p>
          ) : null}
          {route.kind === 'home' ? <HomePage /> : null}
          {route.kind === 'op' ? (
            <>
              <WorkbenchTools operationPath={route.path} context={context} place={place} onOpen={reopen} />
              <Workbench
                operationPath={route.path}
                context={context}
                place={place}
                runtime={runtime}
                draft={draft}
                onExchange={recordExchange}
                onNavigate={goTo}
                onDraftChange={setCurrentRequest}
              />
            </>
          ) : null}
          {route.kind === 'flows' ? (
            <Suspense fallback={loading}>
              <FlowsPage
                flowId={route.id}
                context={context}
                runtime={runtime}
                onOpen={reopen}
                onExchange={recordExchange}
                onNavigate={navigate}
              />
            </Suspense>
          ) : null}
          {route.kind === 'export' ? <ExportsRoute context={context} place={place} onOpen={reopen} /> : null}
          {route.kind === 'history' ? <HistoryPage onReopen={reopen} /> : null}
          {route.kind === 'keys' ? <KeysPage activeLogin={activeLogin} onUseKey={setPrivateKeyPem} /> : null}
          {route.kind === 'return' ? <ReturnPage /> : null}
          {route.kind === 'debugger' ? (
            <Suspense fallback={loading}>
              <DebuggerPage context={context} place={place} runtime={runtime} onOpen={reopen} />
            </Suspense>
          ) : null}
          {route.kind === 'teach' ? (
            <Suspense fallback={loading}>
              <TeachingPage
                operationPath={route.path}
                draft={draft}
                context={context}
                place={place}
                runtime={runtime}
                onPickOperation={teachOn}
              />
            </Suspense>
          ) : null}
          {route.kind === 'join' ? (
            <Suspense fallback={loading}>
              <JoinPage crypto={runtime.crypto} onJoined={() => location.assign('/classroom')} />
            </Suspense>
          ) : null}
          {route.kind === 'classroom' ? (
            <Suspense fallback={loading}>
              <ExercisesPage onOpenOperation={(path) => navigate(opHref(path))} />
            </Suspense>
          ) : null}
          {route.kind === 'trainer' ? (
            <Suspense fallback={loading}>
              <TrainerPage />
            </Suspense>
          ) : null}
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
