import type { KeyConsumer } from '../../diagnose/index.ts';
import type { SigningContext } from '../../model/signing-context.ts';
import { RevealToggle } from '../../ui/index.ts';
import { Input, TextArea } from './debugger-fields.tsx';
import { fieldError, type DebuggerSession, type DebuggerSnapshot } from './debugger-session.ts';

interface Props {
  session: DebuggerSession;
  snap: DebuggerSnapshot;
}

/** The keys to check with: typed in, or the active profile's. */
export function SecretsFieldset({ session, snap, context }: Props & { context: SigningContext | null }) {
  const { form } = snap;
  return (
    <fieldset className="dbg-fieldset">
      <legend>Secrets (optional; kept in this page’s memory only)</legend>
      <p className="dbg-hint">
        Without them the checks that need no secret still run. The control key checks <code>control</code> and
        HMAC-SHA1; the public key checks RSA-SHA256.
      </p>
      <button
        type="button"
        className="ui-btn"
        disabled={!context}
        onClick={() => context && session.useProfile(context)}
      >
        Use the active profile’s keys
      </button>
      {!context ? <p className="dbg-hint">No active profile: fill in the profile bar first.</p> : null}
      {snap.useProfileKey ? (
        <p className="dbg-hint" role="note">
          The active profile’s private key is used to check RSA-SHA256 (held in memory, never shown).{' '}
          <button type="button" className="ui-btn ui-btn-small" onClick={() => session.stopUsingProfileKey()}>
            Stop using the profile’s private key
          </button>
        </p>
      ) : null}
      <Input
        label="Merchant login"
        value={form.login}
        onChange={(v) => session.set('login', v)}
        hint="Default: the body’s login or the oauth_consumer_key."
      />
      <Input
        label="Merchant control key"
        type={snap.revealKey ? 'text' : 'password'}
        value={form.controlKey}
        onChange={(v) => session.set('controlKey', v)}
        after={
          <RevealToggle
            revealed={snap.revealKey}
            onChange={(r) => session.setRevealKey(r)}
            what="the control key"
          />
        }
      />
      <TextArea
        label="Public key (PEM)"
        value={form.publicKeyPem}
        onChange={(v) => session.set('publicKeyPem', v)}
        placeholder="-----BEGIN PUBLIC KEY-----"
        {...(fieldError(snap.run, 'publicKeyPem') ? { error: fieldError(snap.run, 'publicKeyPem') } : {})}
      />
      <TextArea
        label="Private key (PEM)"
        value={form.privateKeyPem}
        onChange={(v) => session.set('privateKeyPem', v)}
        placeholder="-----BEGIN PRIVATE KEY-----"
        hint="Optional: inspected for PKCS#1 / PKCS#8 / public-key confusion and matched with the public key. Never shown."
      />
      <div className="dbg-field">
        <label htmlFor="dbg-consumer">The private key is meant for</label>
        <select
          id="dbg-consumer"
          value={form.keyConsumer}
          onChange={(e) => session.set('keyConsumer', e.target.value as KeyConsumer | '')}
        >
          <option value="">Not known</option>
          <option value="pkcs8">A tool that takes PKCS#8 (signing libraries, Web Crypto, Java)</option>
          <option value="pkcs1">A tool that takes PKCS#1 (the gateway’s in-page builders)</option>
        </select>
      </div>
    </fieldset>
  );
}

/** The merchant's ids, other control keys and the time, for the checks that try alternatives. */
export function MoreToTryFieldset({ session, snap }: Props) {
  const { form } = snap;
  return (
    <fieldset className="dbg-fieldset">
      <legend>More to try (optional)</legend>
      <div className="dbg-pair">
        <Input label="Endpoint id" value={form.endpointId} onChange={(v) => session.set('endpointId', v)} />
        <Input
          label="Endpoint group id"
          value={form.endpointGroupId}
          onChange={(v) => session.set('endpointGroupId', v)}
        />
      </div>
      <p className="dbg-hint">
        The merchant’s ids: the debugger tries signing with the one the path does not carry.
      </p>
      <Input
        label="Other orders’ client_orderid"
        value={form.otherOrderIds}
        placeholder="inv-1041, inv-1042"
        onChange={(v) => session.set('otherOrderIds', v)}
      />
      <p className="dbg-hint">
        Ids of the merchant’s other orders (e.g. the one before): the debugger tries each signed in place of
        the one sent.
      </p>
      {form.alternatives.map((a, i) => (
        <div className="dbg-pair" key={i} role="group" aria-label={`Other key ${i + 1}`}>
          <Input
            label={`Other key ${i + 1}: label`}
            value={a.label}
            placeholder="production"
            onChange={(v) => session.editAlternative(i, { label: v })}
          />
          <Input
            label={`Other key ${i + 1}: control key`}
            type="password"
            value={a.controlKey}
            onChange={(v) => session.editAlternative(i, { controlKey: v })}
            after={
              <button
                type="button"
                className="ui-btn ui-btn-small"
                aria-label={`Remove other key ${i + 1}`}
                onClick={() => session.removeAlternative(i)}
              >
                Remove
              </button>
            }
          />
        </div>
      ))}
      <button type="button" className="ui-btn ui-btn-small" onClick={() => session.addAlternative()}>
        Add another key to try
      </button>
      <Input
        label="Now (for the timestamp check)"
        value={form.now}
        onChange={(v) => session.set('now', v)}
        placeholder="the current time"
        hint="Empty: the current time. Or a date and time (2026-01-04T12:00:00Z), or epoch seconds or milliseconds."
        {...(fieldError(snap.run, 'now') ? { error: fieldError(snap.run, 'now') } : {})}
      />
    </fieldset>
  );
}
