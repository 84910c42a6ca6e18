import { useId, useState } from 'react';
import { webCryptoPort } from '../../core/index.ts';
import { replaceClassroomPrivateKey } from '../../browser/classroom-credentials-write.ts';
import { consoleMode } from '../../browser/console-mode.ts';
import { GenerateSection } from './generate-section.tsx';
import { InspectSection } from './inspect-section.tsx';
import { KeysSession, type KeptPair, type KeysPorts, type ProfileKeys } from './keys-session.ts';
import { RestoreSection } from './restore-section.tsx';
import './keys.css';
import { useStore } from '../../ui/use-store.ts';

/** The last generated pair, kept in memory for the session so that leaving the page does not lose it. */
let lastGenerated: KeptPair | null = null;

function browserPorts(): KeysPorts {
  return {
    crypto: webCryptoPort(),
    now: () => performance.now(),
    every: (ms, tick) => {
      const t = setInterval(tick, ms);
      return () => clearInterval(t);
    },
    memory: {
      read: () => lastGenerated,
      write: (pair) => {
        lastGenerated = pair;
      },
    },
    ...(consoleMode() === 'classroom' ? { keepClassroomKey: replaceClassroomPrivateKey } : {}),
  };
}

export type KeysPageProps = ProfileKeys;

export function KeysPage({ activeLogin, onUseKey, onRememberKey }: KeysPageProps) {
  const titleId = useId();
  const [session] = useState(() => new KeysSession(browserPorts()));
  const s = useStore(session);
  return (
    <section className="ky-page" aria-labelledby={titleId}>
      <h1 id={titleId}>Keys</h1>
      <p className="ky-note">
        RSA key pairs for the v4 operations (OAuth RSA-SHA256). Everything here runs in this browser: the
        private key never leaves it unless you copy or download it.
      </p>
      <GenerateSection
        s={s}
        session={session}
        activeLogin={activeLogin}
        onUseKey={onUseKey}
        onRememberKey={onRememberKey}
      />
      {consoleMode() === 'classroom' ? (
        <p className="ky-note">
          In the classroom there is no demo merchant: if your merchant&apos;s key was lost or replaced, make a
          new one under &ldquo;Your key&rdquo; on the Exercises page, or ask the trainer to restore the key
          you joined with.
        </p>
      ) : (
        <RestoreSection s={s} session={session} activeLogin={activeLogin} onUseKey={onUseKey} />
      )}
      <InspectSection s={s} session={session} />
    </section>
  );
}
