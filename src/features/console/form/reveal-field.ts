/**
 * Opens every collapsed group (a closed `<details>`, e.g. "Optional parameters" when there are
 * more than seven) around a field of the form, so that focusing it works: a field inside a closed
 * `<details>` cannot take focus, and a refused Send must put the cursor where the value goes.
 */
export function revealField(name: string): void {
  let group = document.getElementById(`f-${name}`)?.closest('details');
  while (group) {
    group.open = true;
    group = group.parentElement?.closest('details');
  }
}
