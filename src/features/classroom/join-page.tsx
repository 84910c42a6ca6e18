import { useId, useState, type FormEvent } from 'react';
import type { CryptoPort } from '../../core/index.ts';
import { saveClassroomCredentials } from '../../browser/classroom-credentials.ts';
import { JoinAnswerSchema, postJson } from './classroom-api.ts';
import { makeTraineeKeyPair } from './trainee-key.ts';
import './classroom.css';
import { errorText } from '../../core/errors.ts';

/**
 * The trainee's way in: a display name; this browser makes an RSA key pair, sends only the public
 * key, and keeps the merchant the server hands out (with the private key) in this browser.
 */
export function JoinPage({ crypto, onJoined }: { crypto: CryptoPort; onJoined: () => void }) {
  const nameId = useId();
  const [name, setName] = useState('');
  const [step, setStep] = useState<'idle' | 'keys' | 'joining'>('idle');
  const [error, setError] = useState<string | null>(null);

  async function join(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      setStep('keys');
      const keys = await makeTraineeKeyPair(crypto);
      setStep('joining');
      const answer = await postJson(
        '/classroom/join',
        { name, publicKeyPem: keys.spkiPem },
        JoinAnswerSchema,
        'joining',
      );
      await saveClassroomCredentials({
        version: 1,
        traineeId: answer.traineeId,
        name: answer.name,
        login: answer.login,
        controlKey: answer.controlKey,
        endpointId: answer.endpointId,
        endpointGroupId: answer.endpointGroupId,
        privateKeyPkcs8Pem: keys.pkcs8Pem,
      });
      onJoined();
    } catch (err) {
      setError(errorText(err));
      setStep('idle');
    }
  }

  return (
    <section className="cl-page" aria-labelledby={`${nameId}-title`}>
      <h1 id={`${nameId}-title`}>Join the classroom</h1>
      <p className="cl-note">
        You get your own sandbox merchant (login, control key, endpoint). This browser makes your RSA key
        pair: only the public key is sent; the private key stays here.
      </p>
      <form className="cl-join" onSubmit={(e) => void join(e)}>
        <label htmlFor={nameId}>Display name</label>
        <input
          id={nameId}
          value={name}
          maxLength={40}
          autoComplete="nickname"
          onChange={(e) => setName(e.target.value)}
          required
        />
        <button type="submit" className="cl-button" disabled={step !== 'idle' || name.trim() === ''}>
          {step === 'keys' ? 'Making your key pair…' : step === 'joining' ? 'Joining…' : 'Join'}
        </button>
      </form>
      {error ? (
        <p className="cl-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
