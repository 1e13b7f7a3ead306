/** A decorative 24×24 icon drawn from one SVG path: the button around it carries the accessible name. */
export function SvgIcon({ d, size = 24 }: { d: string; size?: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true">
      <path d={d} fill="currentColor" />
    </svg>
  );
}
