/** A link whose measured state changed too often lately: its up/down reading is not to be trusted yet. */
export function FlappingBadge() {
  return (
    <span
      className="badge badge-flapping"
      data-testid="flapping"
      title="Its operational state changed too often in the recent window"
    >
      flapping
    </span>
  );
}
