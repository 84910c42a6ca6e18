import { useCallback, useEffect, useState } from 'react';
import { listSaved, onSavedChange, type SavedState } from './saved-db.ts';
import { errorText } from '../../core/errors.ts';

/** The saved collections and requests, read again whenever they change (here or in another tab). */
export function useSaved(): { state: SavedState | null; error: string | null } {
  const [state, setState] = useState<SavedState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    listSaved().then(
      (s) => {
        setState(s);
        setError(null);
      },
      (e: unknown) => setError(errorText(e)),
    );
  }, []);
  useEffect(() => {
    load();
    return onSavedChange(load);
  }, [load]);
  return { state, error };
}
