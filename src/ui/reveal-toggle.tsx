export function RevealToggle({
  revealed,
  onChange,
  what,
}: {
  revealed: boolean;
  onChange: (v: boolean) => void;
  what: string;
}) {
  return (
    <button
      type="button"
      className="ui-btn ui-btn-small"
      aria-pressed={revealed}
      aria-label={`${revealed ? 'Hide' : 'Reveal'} ${what}`}
      onClick={() => onChange(!revealed)}
    >
      {revealed ? 'Hide' : 'Reveal'}
    </button>
  );
}
