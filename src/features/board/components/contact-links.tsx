import { telLink, whatsAppLink } from '../lib/columns';

interface ContactLinksProps {
  name: string;
  phone: string | null | undefined;
  /** Called on either tap: the after-call prompt remembers the lead (reminders/lib/post-call). */
  onContact: () => void;
  callClass?: string;
  whatsAppClass?: string;
}

const CARD_ACTION = 'button button-secondary card-action';

/** Call and WhatsApp for one lead, as on the board's cards, Today's rows and the lead page. */
export function ContactLinks({
  name,
  phone,
  onContact,
  callClass = CARD_ACTION,
  whatsAppClass = CARD_ACTION,
}: ContactLinksProps) {
  if (!phone) return null;
  const whatsApp = whatsAppLink(phone, name);
  return (
    <>
      <a className={callClass} href={telLink(phone)} aria-label={`Call ${name}`} onClick={onContact}>
        Call
      </a>
      {whatsApp ? (
        <a
          className={whatsAppClass}
          href={whatsApp}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={`WhatsApp ${name}`}
          onClick={onContact}
        >
          WhatsApp
        </a>
      ) : null}
    </>
  );
}
