import { FIRST_FORM_ID } from '../features/console/form/first-form-ids.ts';

type Field = HTMLInputElement | HTMLSelectElement;

/**
 * Hands the pre-rendered first form (scripts/prerender-ops.ts) over to the app without losing what
 * was typed. The pre-rendered form stays live until the app's own form is in the DOM with every
 * field; then, in one synchronous step (no event can run in between), each value that differs
 * from the page's initial one is written into the app's field through the same `input`/`change`
 * event typing sends (so react-hook-form and the panes see it as typed), focus and caret follow,
 * and the pre-rendered form goes. Typing after that lands in the app's field.
 */
export function takeOverFirstForm(appRoot: HTMLElement): void {
  const first = document.getElementById(FIRST_FORM_ID);
  if (!first) return;
  const fields = [...first.querySelectorAll<Field>('input[id^="f-"], select[id^="f-"]')];
  const tryTakeOver = (): boolean => {
    const targets = fields.map((f) => appRoot.querySelector<Field>(`#${CSS.escape(f.id)}`));
    if (targets.some((t) => t === null)) return false;
    const active = document.activeElement;
    fields.forEach((from, i) => transfer(from, targets[i]!));
    for (const details of first.querySelectorAll('details[open]')) {
      const id = details.querySelector('[id^="f-"]')?.id;
      const twin = id ? appRoot.querySelector(`#${CSS.escape(id)}`)?.closest('details') : null;
      if (twin) twin.open = true;
    }
    const focused = fields.indexOf(active as Field);
    first.remove();
    if (focused >= 0) moveFocus(fields[focused]!, targets[focused]!);
    return true;
  };
  if (tryTakeOver()) return;
  // The app's first commit adds its whole tree at once; the observer's callback runs in the
  // microtask right after it, before any queued keystroke.
  const observer = new MutationObserver(() => {
    if (tryTakeOver()) observer.disconnect();
  });
  observer.observe(appRoot, { childList: true, subtree: true });
}

/** Writes a typed value the way the browser does, so React's change tracking notices it. */
function transfer(from: Field, to: Field): void {
  const initial =
    from instanceof HTMLSelectElement
      ? ([...from.options].find((o) => o.defaultSelected)?.value ?? from.options[0]?.value ?? '')
      : from.defaultValue;
  if (from.value === initial || from.value === to.value) return;
  const proto = to instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(to, from.value);
  to.dispatchEvent(new Event(to instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
}

function moveFocus(from: Field, to: Field): void {
  to.focus({ preventScroll: true });
  if (from instanceof HTMLInputElement && to instanceof HTMLInputElement) {
    try {
      to.setSelectionRange(from.selectionStart, from.selectionEnd, from.selectionDirection ?? undefined);
    } catch {
      // Only text inputs have a caret.
    }
  }
}
