import { useId, useState } from 'react';
import type { ProfilesValue } from './profiles-provider.tsx';

/** The profile picker with New, Rename (inline), Duplicate and Delete (asked first). */
export function ProfileSwitcher({ p }: { p: ProfilesValue }) {
  const selectId = useId();
  const renameId = useId();
  const [mode, setMode] = useState<'idle' | 'rename' | 'delete'>('idle');
  const [name, setName] = useState('');
  const active = p.active!;

  if (mode === 'rename') {
    const save = () => {
      if (name.trim() !== '') p.updateProfile('name', name.trim());
      setMode('idle');
    };
    return (
      <form
        className="pf-inline pf-switcher"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <label htmlFor={renameId}>New name</label>
        <input
          id={renameId}
          autoFocus
          value={name}
          onChange={(e) => setName(e.target.value)}
          onKeyDown={(e) => e.key === 'Escape' && setMode('idle')}
        />
        <button type="submit" className="pf-button pf-button--primary">
          Save name
        </button>
        <button type="button" className="pf-button" onClick={() => setMode('idle')}>
          Cancel
        </button>
      </form>
    );
  }

  return (
    <div className="pf-inline pf-switcher">
      <label htmlFor={selectId}>Profile</label>
      <div className="pf-inline">
        <select id={selectId} value={active.id} onChange={(e) => p.selectProfile(e.target.value)}>
          {p.profiles.map((x) => (
            <option key={x.id} value={x.id}>
              {x.name}
            </option>
          ))}
        </select>
        {mode === 'delete' ? (
          <span role="group" aria-label="Confirm deletion" className="pf-inline">
            <span>Delete “{active.name}” and its secrets?</span>
            <button
              type="button"
              className="pf-button pf-button--danger"
              onClick={() => {
                p.deleteProfile();
                setMode('idle');
              }}
            >
              Yes, delete
            </button>
            <button type="button" className="pf-button" onClick={() => setMode('idle')}>
              Cancel
            </button>
          </span>
        ) : (
          <>
            <button type="button" className="pf-button" onClick={p.addProfile}>
              New profile
            </button>
            <button
              type="button"
              className="pf-button"
              onClick={() => {
                setName(active.name);
                setMode('rename');
              }}
            >
              Rename profile
            </button>
            <button type="button" className="pf-button" onClick={p.duplicateProfile}>
              Duplicate profile
            </button>
            <button
              type="button"
              className="pf-button"
              disabled={p.profiles.length <= 1}
              title={p.profiles.length <= 1 ? 'The last profile cannot be deleted' : undefined}
              onClick={() => setMode('delete')}
            >
              Delete profile
            </button>
          </>
        )}
      </div>
    </div>
  );
}
