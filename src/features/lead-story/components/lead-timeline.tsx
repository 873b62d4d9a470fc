import type { TimelineEvent } from '../../../../contract/lead-timeline';
import { describeEvent, formatTime } from '../lib/describe';

/** Everything that happened to a lead, oldest first (issue 17). */
export function LeadTimelineList({ events }: { events: readonly TimelineEvent[] }) {
  return (
    <ol className="lead-timeline" aria-label="Timeline">
      {events.map((event, i) => {
        const text = describeEvent(event);
        if (!text) return null;
        return (
          // Events have no id of their own; their order in the answer is stable.
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced, never reordered
          <li key={i} className="lead-timeline-event" data-type={event.type}>
            <time dateTime={event.at}>{formatTime(event.at)}</time>
            <p className="lead-timeline-title">{text.title}</p>
            {text.detail ? <p className="lead-timeline-detail">{text.detail}</p> : null}
          </li>
        );
      })}
    </ol>
  );
}
