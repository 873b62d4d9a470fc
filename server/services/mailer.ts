import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import SMTPTransport from 'nodemailer/lib/smtp-transport';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export type MailResult = { via: 'smtp'; messageId: string } | { via: 'file'; file: string };

interface MailerOptions {
  smtpUrl?: string;
  mailFrom: string;
  dataDir: string;
}

/**
 * DESIGN.md §6: SMTP when SMTP_URL is set; otherwise every message becomes an .eml file under
 * `<dataDir>/mail/`, so a local install without a mail server can still reset a password.
 */
export function createMailer({ smtpUrl, mailFrom, dataDir }: MailerOptions) {
  const mailDir = path.join(dataDir, 'mail');
  const transport: Transporter = smtpUrl
    ? nodemailer.createTransport(
        // Short timeouts (nodemailer waits minutes by default); settings in the URL's query win.
        new SMTPTransport({
          url: smtpUrl,
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 30_000,
        }),
      )
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  async function writeFile(raw: Buffer): Promise<string> {
    // The files hold live reset links: readable by the server's user only.
    await fs.mkdir(mailDir, { recursive: true, mode: 0o700 });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(mailDir, `${stamp}-${crypto.randomBytes(4).toString('hex')}.eml`);
    await fs.writeFile(file, raw, { mode: 0o600 });
    return file;
  }

  return {
    via: smtpUrl ? ('smtp' as const) : ('file' as const),
    mailDir,
    async send(message: MailMessage): Promise<MailResult> {
      const info = await transport.sendMail({ from: mailFrom, ...message });
      if (smtpUrl) return { via: 'smtp', messageId: String(info.messageId) };
      return { via: 'file', file: await writeFile(info.message as Buffer) };
    },
    close(): void {
      transport.close();
    },
  };
}
export type Mailer = ReturnType<typeof createMailer>;
