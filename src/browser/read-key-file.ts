/** The largest file accepted as a PEM key: a real key is a few kilobytes. */
const MAX_KEY_FILE_BYTES = 64 * 1024;

/**
 * Reads the file chosen in a key-file input (a React change event fits; no React needed here) and clears the input so the same file can be chosen again.
 * Returns null when nothing was chosen, the text when the file fits, or an error that says what to do.
 */
export async function readKeyFile(e: {
  target: HTMLInputElement;
}): Promise<{ text: string } | { error: string } | null> {
  const file = e.target.files?.[0];
  e.target.value = '';
  if (!file) return null;
  if (file.size > MAX_KEY_FILE_BYTES) {
    return {
      error: `${file.name} is ${file.size} bytes: a PEM key is a few kilobytes. Choose the key file itself.`,
    };
  }
  return { text: await file.text() };
}
