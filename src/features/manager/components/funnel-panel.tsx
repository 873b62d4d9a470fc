import type { ActivityAnswer } from '../../../../contract/manager';

const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((100 * part) / whole)}%` : '—');
const STEPS = ['new', 'interested', 'site visit', 'booking'];

/** Leads by status now, and New → Interested → Site Visit → Booking over the period. */
export function FunnelPanel({ funnel }: { funnel: ActivityAnswer['funnel'] }) {
  const widest = Math.max(1, ...funnel.map((f) => f.count));
  const steps = STEPS.map((name) => funnel.find((f) => f.clientStat.toLowerCase() === name)).filter(
    (f): f is ActivityAnswer['funnel'][number] => f !== undefined,
  );
  return (
    <div className="manager-funnel">
      <h3 className="manager-subtitle">Leads by status now</h3>
      <ul className="manager-bars">
        {funnel.map((f) => (
          <li key={f.clientStatusId}>
            <span className="manager-bar-label">{f.clientStat}</span>
            <span className="manager-bar-track">
              <span className="manager-bar" style={{ width: `${(100 * f.count) / widest}%` }} />
            </span>
            <span className="manager-bar-value">{f.count}</span>
          </li>
        ))}
      </ul>
      <h3 className="manager-subtitle">Reached in this period</h3>
      <ol className="manager-steps">
        {steps.slice(1).map((step, i) => {
          const before = i === 0 ? undefined : steps[i];
          return (
            <li key={step.clientStatusId}>
              <strong>{step.reached}</strong> {step.clientStat}
              {before ? (
                <span className="muted">
                  {' '}
                  · {percent(step.reached, before.reached)} of {before.clientStat}
                </span>
              ) : null}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
