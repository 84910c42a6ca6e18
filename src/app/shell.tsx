import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { findOperation } from '../catalog/index.ts';
import { parseDraft, type RequestDraft } from '../model/index.ts';
import { Workbench, type WorkbenchNavigation } from '../features/console/index.ts';
import { recordExchange } from '../features/history/index.ts';
import { useClassroomTrainee } from '../features/classroom/use-classroom-trainee.ts';
import { useProfileActions, useSigningContext } from '../features/profiles/index.ts';
import type { Exchange } from '../model/exchange.ts';
import { whenIdle } from '../ui/index.ts';
import { CatalogNav } from './catalog-nav.tsx';
import { setCurrentRequest } from './current-request.ts';
import { ExportsRoute, WorkbenchTools } from './request-tools-bar.tsx';
import { navigate, onLinkClick, opHref, parseRoute, useLocation } from './router.ts';
import { teachHref } from './routes.ts';
import { SECTIONS } from './sections.ts';
import { runtime, usePlace } from './runtime.ts';
import { useThemeChoice, type ThemeChoice } from './theme.ts';

// Pages that use TanStack Query load the shared query client with them (not on the first page).
const queryScope = () => import('../ui/query-scope.tsx');
// The customer's return from the issuer (3-D Secure) is handled by code loaded after the first form.
const customerReturn = () => import('./customer-return.ts');
const DebuggerPage = lazy(() =>
  import('../features/debugger/index.ts').then((m) => ({ default: m.DebuggerPage })),
);
const CapsulePage = lazy(() =>
  import('../features/capsule/index.ts').then((m) => ({ default: m.CapsulePage })),
);
const TeachingPage = lazy(() =>
  import('../features/teaching/index.ts').then((m) => ({ default: m.TeachingPage })),
);
const FlowsPage = lazy(() => import('../features/flows/index.ts').then((m) => ({ default: m.FlowsPage })));
const HomePage = lazy(() => import('./home-page.tsx').then((m) => ({ default: m.HomePage })));
const ReturnPage = lazy(() => import('./return-page.tsx').then((m) => ({ default: m.ReturnPage })));
// Pages other than the workbench load with their route, so the first form needs none of their code.
const HistoryPage = lazy(() =>
  Promise.all([import('../features/history/history-page.tsx'), queryScope()]).then(([m, q]) => ({
    default: q.withQueries(m.HistoryPage),
  })),
);
const KeysPage = lazy(() => import('../features/keys/keys-page.tsx').then((m) => ({ default: m.KeysPage })));
const ScenariosPage = lazy(() =>
  import('../features/scenarios/scenarios-page.tsx').then((m) => ({ default: m.ScenariosPage })),
);
const ClassroomPage = lazy(() =>
  import('../features/classroom/index.ts').then((m) => ({ default: m.ClassroomPage })),
);
const SavedPage = lazy(() =>
  import('../features/saved/saved-page.tsx').then((m) => ({ default: m.SavedPage })),
);
// The profile bar (and its key and vault tools) follows the first form: the form signs without it.
const ProfileBar = lazy(() =>
  import('../features/profiles/profile-bar.tsx').then((m) => ({ default: m.ProfileBar })),
);
const profileBarSpace = <section className="pf-bar" aria-label="Merchant credentials" aria-busy="true" />;
// The command palette and the shortcut list load on first use (Ctrl/⌘+K, `?` or the header button).
const Overlay = lazy(() => import('./command-palette.tsx').then((m) => ({ default: m.Overlay })));
const loading = <p role="status">Loading…</p>;

/**
 * The one navigation that asked to send its draft. Held in memory, not in history state, so a
 * reload or a later back/forward to that page never sends again.
 */
let pendingSend: string | null = null;
function sendTokenOf(state: unknown): unknown {
  return state && typeof state === 'object' ? (state as { send?: unknown }).send : undefined;
}

/** Opens a draft in the workbench and sends it once (the form's checks and confirmations apply). */
export function openAndSend(d: RequestDraft, saved?: string): void {
  pendingSend = globalThis.crypto.randomUUID();
  navigate(opHref(d.operation), { draft: d, send: pendingSend, saved });
}

/** True when focus is where typing `?` means text (fields, editors). */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
}

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

/** Records the exchange in history and remembers its order ids, to claim the customer's return. */
function onExchange(ex: Exchange): Promise<void> {
  void customerReturn().then((m) => m.noteOrders(ex));
  return recordExchange(ex);
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
  const { setPrivateKeyPem, rememberPrivateKey, activeLogin } = useProfileActions();
  const draft = draftFromState(loc.state);
  const place = usePlace(context?.credentials.login ?? '');
  const trainee = useClassroomTrainee();

  const goTo = useCallback((to: WorkbenchNavigation) => {
    navigate(opHref(to.operationPath), to.draft ? { draft: to.draft } : null);
  }, []);

  const reopen = useCallback(
    (d: RequestDraft, saved?: string) => navigate(opHref(d.operation), { draft: d, saved }),
    [],
  );
  const sendOnOpen = pendingSend !== null && sendTokenOf(loc.state) === pendingSend;
  useEffect(() => {
    // The workbench has taken the request to send: never again for this entry.
    if (sendOnOpen) pendingSend = null;
  });
  const [overlay, setOverlay] = useState<'palette' | 'shortcuts' | null>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setOverlay((o) => (o === 'palette' ? null : 'palette'));
      } else if (e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey && !isTyping(e.target)) {
        e.preventDefault();
        setOverlay('shortcuts');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const teachOn = useCallback((path: string) => navigate(teachHref(path)), []);
  // The customer's return from the issuer (in another tab) fills this tab's upload form.
  useEffect(() => {
    let live = true;
    let stop: (() => void) | undefined;
    // Loaded once the page is idle: a return comes from another tab, long after this one is usable.
    const cancel = whenIdle(() => {
      void customerReturn().then((m) => {
        if (!live) return;
        stop = m.listenForReturns((fields) => {
          const upload = m.uploadDraft(fields);
          if (upload) navigate(opHref(upload.draft.operation), { draft: upload.draft });
        });
      });
    });
    return () => {
      live = false;
      cancel();
      stop?.();
    };
  }, []);
  const [shareError, setShareError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const openShared = async () => {
      // The share-link decoder (and the exports code under it) loads only when there is a fragment.
      if (location.hash.length < 2) return;
      const { readShareFragment } = await import('../features/exports/share-fragment.ts');
      const shared = live ? readShareFragment(location.hash) : null;
      if (!shared) return;
      if ('error' in shared) {
        setShareError(shared.error);
        return;
      }
      setShareError(null);
      navigate(opHref(shared.draft.operation), { draft: shared.draft }, true);
    };
    const onHash = () => void openShared();
    onHash();
    window.addEventListener('hashchange', onHash);
    return () => {
      live = false;
      window.removeEventListener('hashchange', onHash);
    };
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
        <button
          type="button"
          className="app-commands"
          aria-keyshortcuts="Control+K Meta+K"
          aria-haspopup="dialog"
          onClick={() => setOverlay('palette')}
        >
          Commands <kbd>Ctrl K</kbd>
        </button>
        <ThemePicker />
      </header>
      {/* The trainer's page and the join page have no merchant to sign with. */}
      {route.kind === 'trainer' || route.kind === 'join' ? null : (
        <Suspense fallback={profileBarSpace}>
          <ProfileBar />
        </Suspense>
      )}
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
          {/* The question the trainer pushed to the room, on every page a trainee works in. */}
          {trainee && (
            <Suspense>
              <ClassroomPage />
            </Suspense>
          )}
          {route.kind === 'home' ? (
            <Suspense fallback={loading}>
              <HomePage />
            </Suspense>
          ) : null}
          {route.kind === 'op' ? (
            <>
              {/* No export, share, import or teaching for an operation the catalog does not know. */}
              {findOperation(route.path) ? (
                <WorkbenchTools
                  key={loc.key}
                  operationPath={route.path}
                  context={context}
                  place={place}
                  onOpen={reopen}
                  savedId={(loc.state as { saved?: string } | null)?.saved}
                />
              ) : null}
              <Workbench
                operationPath={route.path}
                context={context}
                place={place}
                runtime={runtime}
                draft={draft}
                onExchange={onExchange}
                onNavigate={goTo}
                onDraftChange={setCurrentRequest}
                sendOnOpen={sendOnOpen}
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
                onExchange={onExchange}
                onNavigate={navigate}
              />
            </Suspense>
          ) : null}
          {route.kind === 'export' ? <ExportsRoute context={context} place={place} onOpen={reopen} /> : null}
          {route.kind === 'history' ? (
            <Suspense fallback={loading}>
              <HistoryPage
                onReopen={reopen}
                onResend={openAndSend}
                context={context}
                place={place}
                runtime={runtime}
              />
            </Suspense>
          ) : null}
          {route.kind === 'saved' ? (
            <Suspense fallback={loading}>
              <SavedPage onOpen={reopen} onSend={openAndSend} context={context} runtime={runtime} />
            </Suspense>
          ) : null}
          {route.kind === 'keys' ? (
            <Suspense fallback={loading}>
              <KeysPage
                activeLogin={activeLogin}
                onUseKey={setPrivateKeyPem}
                onRememberKey={rememberPrivateKey}
              />
            </Suspense>
          ) : null}
          {route.kind === 'scenarios' ? (
            <Suspense fallback={loading}>
              <ScenariosPage activeLogin={activeLogin ?? undefined} />
            </Suspense>
          ) : null}
          {route.kind === 'return' ? (
            <Suspense fallback={loading}>
              <ReturnPage />
            </Suspense>
          ) : null}
          {route.kind === 'debugger' ? (
            <Suspense fallback={loading}>
              <DebuggerPage context={context} place={place} runtime={runtime} onOpen={reopen} />
            </Suspense>
          ) : null}
          {route.kind === 'capsule' ? (
            <Suspense fallback={loading}>
              <CapsulePage runtime={runtime} />
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
              <ClassroomPage
                page="join"
                crypto={runtime.crypto}
                onJoined={() => location.assign('/classroom')}
              />
            </Suspense>
          ) : null}
          {route.kind === 'classroom' ? (
            <Suspense fallback={loading}>
              <ClassroomPage page="exercises" crypto={runtime.crypto} onNavigate={navigate} />
            </Suspense>
          ) : null}
          {route.kind === 'trainer' ? (
            <Suspense fallback={loading}>
              <ClassroomPage page="trainer" />
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
      {overlay ? (
        <Suspense fallback={null}>
          <Overlay
            which={overlay}
            sections={SECTIONS}
            onClose={() => setOverlay(null)}
            onNavigate={navigate}
            onOpen={reopen}
            onShortcuts={() => setOverlay('shortcuts')}
          />
        </Suspense>
      ) : null}
    </>
  );
}
