import { loadClassroomCredentials, saveClassroomCredentials } from './classroom-credentials.ts';

/* Changes to the kept classroom credentials that only later pages make (not the first page's code). */

/**
 * Keeps a new private key for the trainee's merchant `login` (its public key was just registered);
 * false when this browser holds no credentials of that merchant.
 */
export async function replaceClassroomPrivateKey(
  login: string,
  privateKeyPkcs8Pem: string,
): Promise<boolean> {
  const c = await loadClassroomCredentials();
  if (!c || c.login !== login) return false;
  await saveClassroomCredentials({ ...c, privateKeyPkcs8Pem });
  return true;
}

/**
 * Leaves the classroom: the server ends this browser's session (POST /classroom/leave), then the
 * credentials kept here are deleted. A session the server no longer knows (401) still deletes them.
 */
export async function leaveClassroom(): Promise<void> {
  let res: Response;
  try {
    res = await fetch('/classroom/leave', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{}',
    });
  } catch {
    throw new Error(
      'Could not reach the classroom server to leave: is `npm run classroom` still running? Nothing was deleted; retry.',
    );
  }
  if (!res.ok && res.status !== 401)
    throw new Error(`The classroom server answered ${res.status} to leaving: nothing was deleted; retry.`);
  await saveClassroomCredentials(null);
}
