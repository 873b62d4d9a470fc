export type Density = 'regular' | 'compact';

/** Spec §2: the Regular/Compact toggle of the board's cards. */
export function DensityToggle({
  density,
  onDensity,
}: {
  density: Density;
  onDensity: (density: Density) => void;
}) {
  return (
    <fieldset className="density-toggle">
      <legend className="visually-hidden">Density</legend>
      {(['regular', 'compact'] as const).map((value) => (
        <button
          key={value}
          type="button"
          className="density-option"
          aria-pressed={density === value}
          onClick={() => onDensity(value)}
        >
          {value === 'regular' ? 'Regular' : 'Compact'}
        </button>
      ))}
    </fieldset>
  );
}
