interface LogoProps {
  size?: number;
  className?: string;
}

/** The LeadNest mark: a light house on a dark tile; same drawing as public/favicon.svg. */
export function Logo({ size = 40, className }: LogoProps) {
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 100 100"
      aria-hidden="true"
      focusable="false"
    >
      <rect width="100" height="100" rx="22" fill="#1f2937" />
      <path d="M50 18 L84 46 L76 52 L50 31 L24 52 L16 46 Z" fill="#5eead4" />
      <path
        d="M28 50 L50 33 L72 50 L72 80 L28 80 Z M43 80 L43 62 L57 62 L57 80 Z"
        fill="#f9fafb"
        fillRule="evenodd"
      />
    </svg>
  );
}
