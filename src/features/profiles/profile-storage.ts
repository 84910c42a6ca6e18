import { StoredProfilesSchema, type StoredProfiles } from './profile-schema.ts';

const STORAGE_KEY = 'pay-console.profiles';

/** Reads the non-secret profile fields; anything unreadable counts as a first start. */
export function loadStoredProfiles(
  storage: Storage | undefined = globalThis.localStorage,
): StoredProfiles | null {
  try {
    const raw = storage?.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = StoredProfilesSchema.safeParse(JSON.parse(raw));
    return parsed.success && parsed.data.profiles.length > 0 ? parsed.data : null;
  } catch {
    return null;
  }
}

export function saveStoredProfiles(
  value: StoredProfiles,
  storage: Storage | undefined = globalThis.localStorage,
): void {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(StoredProfilesSchema.parse(value)));
  } catch {
    // Private mode or a full quota: profiles then last for this session only.
  }
}
