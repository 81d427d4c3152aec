/** A short line sample for chart legends (a link state, a threshold line). */
export function LineSwatch({ colour, width, dash }: { colour: string; width: number; dash?: string }) {
  return (
    <svg width="28" height="10" aria-hidden="true">
      <line x1="1" y1="5" x2="27" y2="5" stroke={colour} strokeWidth={width} strokeDasharray={dash} />
    </svg>
  );
}
