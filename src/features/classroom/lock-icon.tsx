/**
 * The locked-exercise mark: a padlock drawn in SVG (an emoji renders as an empty box on machines
 * without an emoji font) beside the word, so the state reads without the picture too.
 */
export function LockedMark() {
  return (
    <span className="cl-locked-mark">
      <svg
        className="cl-lock-icon"
        viewBox="0 0 16 16"
        width="12"
        height="12"
        aria-hidden="true"
        focusable="false"
      >
        <path
          d="M4.5 7V5a3.5 3.5 0 0 1 7 0v2"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.6"
          strokeLinecap="round"
        />
        <rect x="2.5" y="7" width="11" height="8" rx="1.5" fill="currentColor" />
      </svg>{' '}
      locked
    </span>
  );
}
