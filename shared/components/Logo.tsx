/** The site mark: a play triangle in a rounded square, then the name. */
export function Logo({ name }: { name: string }) {
  return (
    <span className="logo">
      <svg className="logo-mark" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="url(#logo-gradient)" />
        <path d="M13 10.5v11l9-5.5z" fill="#fff" />
        <defs>
          <linearGradient id="logo-gradient" x1="0" y1="0" x2="32" y2="32" gradientUnits="userSpaceOnUse">
            <stop stopColor="#ff5a5f" />
            <stop offset="1" stopColor="#ff9f43" />
          </linearGradient>
        </defs>
      </svg>
      <span className="logo-text">{name}</span>
    </span>
  );
}
