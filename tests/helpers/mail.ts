import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpSink {
  url: string;
  received: ReceivedMail[];
  /** The next message to arrive (or one that already arrived and was not taken yet). */
  next(): Promise<ReceivedMail>;
  /** Forgets the messages not taken yet. */
  skipPending(): void;
  close(): Promise<void>;
}

/** A real SMTP server on a random port that keeps every message it is given. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const unread: ReceivedMail[] = [];
  const waiters: ((mail: ReceivedMail) => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        received.push(mail);
        const waiter = waiters.shift();
        if (waiter) waiter(mail);
        else unread.push(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    next() {
      const ready = unread.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiters.push(resolve));
    },
    skipPending() {
      unread.splice(0);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Undoes quoted-printable (soft line breaks, =XX escapes), as mail clients do before showing text. */
export function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** The reset link a person would click in the mail. */
export function resetLinkIn(raw: string): URL {
  const match = /https?:\/\/[^\s"<>]+\/reset-password[?#]token=[A-Za-z0-9_-]+/.exec(
    decodeQuotedPrintable(raw),
  );
  if (!match) throw new Error(`no reset link in the mail:\n${raw}`);
  return new URL(match[0]);
}

/** The token of a reset link, wherever the link carries it (fragment, or an older link's query). */
export function resetTokenOf(link: URL): string {
  return new URLSearchParams(link.hash.slice(1)).get('token') ?? link.searchParams.get('token') ?? '';
}
