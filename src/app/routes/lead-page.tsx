import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import type { Lead } from '../../../contract/leads';
import { homePathFor } from '../../config/paths';
import { ContactLinks } from '../../features/board/components/contact-links';
import { LeadTimelineList } from '../../features/lead-story/components/lead-timeline';
import { useLeadStory } from '../../features/lead-story/hooks/use-lead-story';
import { formatTime } from '../../features/lead-story/lib/describe';
import { rememberContact } from '../../features/reminders/lib/post-call';
import { useSession } from '../../lib/session';
import '../../features/lead-story/components/lead-story.css';

/** Call and WhatsApp as on the board's cards, so the after-call prompt follows here too. */
function ContactButtons({ lead }: { lead: Lead }) {
  const phone = lead.phoneNo || lead.contactNo;
  if (!phone) return null;
  return (
    <div className="lead-page-actions">
      <ContactLinks
        name={lead.name}
        phone={phone}
        onContact={() => rememberContact(lead.leadID)}
        callClass="button button-primary"
        whatsAppClass="button button-secondary"
      />
    </div>
  );
}

function Facts({ lead, holder, followUp }: { lead: Lead; holder: string; followUp: React.ReactNode }) {
  return (
    <dl className="lead-page-facts">
      <div>
        <dt>Status</dt>
        <dd>{lead.status ?? 'New'}</dd>
      </div>
      <div>
        <dt>Held by</dt>
        <dd>{holder || 'Unassigned'}</dd>
      </div>
      <div>
        <dt>Next follow-up</dt>
        {followUp}
      </div>
      {lead.siteVisit ? (
        <div>
          <dt>Campaign</dt>
          <dd>{lead.siteVisit}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/** /leads/:id (issue 17): a lead's whole story, one tap from every list and board card. */
export function LeadPage() {
  const id = Number(useParams().id);
  const story = useLeadStory(Number.isInteger(id) && id > 0 ? id : 0);
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const home = (session && homePathFor(session.roleId)) || '/';
  // Opened from a link in the app: back to where the user was; opened directly: to their home.
  const back =
    location.key === 'default' ? (
      <Link className="button button-light lead-page-back" to={home}>
        ← Back
      </Link>
    ) : (
      <button type="button" className="button button-light lead-page-back" onClick={() => navigate(-1)}>
        ← Back
      </button>
    );

  if (story.state === 'loading') {
    return (
      <section className="page lead-page" aria-busy="true">
        {back}
        <p className="muted">Loading the lead…</p>
      </section>
    );
  }
  if (story.state === 'missing' || story.state === 'failed') {
    return (
      <section className="page lead-page">
        {back}
        <p className="notice notice-warning" role="alert">
          {story.message}
        </p>
      </section>
    );
  }

  const lead = story.state === 'ready' ? story.story.lead : story.lead;
  const phone = lead.phoneNo || lead.contactNo;
  let followUp: React.ReactNode = <dd className="muted">Needs a connection</dd>;
  if (story.state === 'ready') {
    const next = story.story.nextFollowUp;
    followUp = next ? (
      <dd data-overdue={Date.parse(next.at) < Date.now()}>
        {formatTime(next.at)}
        {next.note ? ` · ${next.note}` : ''}
      </dd>
    ) : (
      <dd>None</dd>
    );
  }
  const holder = story.state === 'ready' ? (story.story.holder?.email ?? '') : lead.assignedTo;

  return (
    <section className="page lead-page" aria-labelledby="lead-page-title">
      {back}
      <div className="lead-page-card">
        <h1 className="page-title" id="lead-page-title">
          {lead.name || 'Lead with no name'}
        </h1>
        <p className="lead-page-contact">{[phone, lead.email].filter(Boolean).join(' · ')}</p>
        <ContactButtons lead={lead} />
        <Facts lead={lead} holder={holder} followUp={followUp} />
      </div>
      <h2 className="lead-page-subtitle">Timeline</h2>
      {story.state === 'ready' ? (
        <LeadTimelineList events={story.story.events} />
      ) : (
        <p className="notice notice-info" role="status">
          You are offline. This is the lead as saved on this device; the timeline needs a connection.
        </p>
      )}
    </section>
  );
}
