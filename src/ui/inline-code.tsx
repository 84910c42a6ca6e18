/** Text with `backticked` spans shown as code, as the description writes names and values. */
export function InlineCode({ text }: { text: string }) {
  const parts = text.split(/(`[^`]+`)/);
  return (
    <>
      {parts.map((p, i) =>
        p.length > 2 && p.startsWith('`') && p.endsWith('`') ? <code key={i}>{p.slice(1, -1)}</code> : p,
      )}
    </>
  );
}
