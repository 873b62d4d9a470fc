import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../contract/messages';
import { createMailer } from '../../../server/services/mailer';
import { resetLinkIn, resetTokenOf, type SmtpSink, startSmtpSink } from '../../helpers/mail';
import { createFirstAdmin, createTestApp } from '../../helpers/test-server';

const message = {
  to: 'agent@example.com',
  subject: 'Hello from LeadNest',
  text: 'Plain words',
  html: '<p>Rich words</p>',
};

describe('mailer over SMTP', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());

  it('hands the message to the SMTP server in SMTP_URL', async () => {
    const mailer = createMailer({
      smtpUrl: sink.url,
      mailFrom: 'LeadNest <from@leadnest.test>',
      dataDir: os.tmpdir(),
    });
    const result = await mailer.send(message);
    mailer.close();
    expect(result.via).toBe('smtp');
    const mail = await sink.next();
    expect(mail.from).toBe('from@leadnest.test');
    expect(mail.to).toEqual(['agent@example.com']);
    expect(mail.raw).toContain('Subject: Hello from LeadNest');
    expect(mail.raw).toContain('Plain words');
    expect(mail.raw).toContain('<p>Rich words</p>');
  });

  it('fails the send when the server cannot be reached', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as net.AddressInfo;
        srv.close(() => resolve(port));
      });
    });
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${closedPort}`,
      mailFrom: 'a@b.test',
      dataDir: os.tmpdir(),
    });
    await expect(mailer.send(message)).rejects.toThrow();
    mailer.close();
  });
});

describe('mailer without SMTP_URL', () => {
  it('writes each message as an .eml file under <dataDir>/mail', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadnest-mail-'));
    const mailer = createMailer({ mailFrom: 'LeadNest <from@leadnest.test>', dataDir });
    const first = await mailer.send(message);
    const second = await mailer.send({ ...message, subject: 'Second' });
    expect(first.via).toBe('file');
    const files = fs.readdirSync(path.join(dataDir, 'mail'));
    expect(files).toHaveLength(2);
    expect(files.every((f) => f.endsWith('.eml'))).toBe(true);
    if (first.via !== 'file' || second.via !== 'file') throw new Error('expected files');
    const raw = fs.readFileSync(first.file, 'utf8');
    expect(raw).toContain('To: agent@example.com');
    expect(raw).toContain('Subject: Hello from LeadNest');
    expect(raw).toContain('Plain words');
    expect(fs.readFileSync(second.file, 'utf8')).toContain('Subject: Second');
    // The files hold reset links: only the server's user may read them.
    expect(fs.statSync(first.file).mode & 0o077).toBe(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('lets a local install reset a password from the written file', async () => {
    const t = await createTestApp({ PUBLIC_URL: 'http://localhost:8093' });
    try {
      const admin = await createFirstAdmin(t.app);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/Registration/forgotpassword',
        payload: { email: admin.email },
      });
      expect(res.json()).toEqual({ message: messages.password.forgotAnswer });
      await t.app.deps.passwordReset.idle();

      const mailDir = path.join(t.config.dataDir, 'mail');
      const [file] = fs.readdirSync(mailDir);
      const link = resetLinkIn(fs.readFileSync(path.join(mailDir, file!), 'utf8'));
      expect(link.origin).toBe('http://localhost:8093');
      const token = resetTokenOf(link);
      const done = await t.app.inject({
        method: 'POST',
        url: '/api/Registration/reset-password',
        payload: { token, password: 'Fresh@Pass1', ConfirmPassword: 'Fresh@Pass1' },
      });
      expect(done.statusCode).toBe(200);
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/Registration/login',
        payload: { email: admin.email, password: 'Fresh@Pass1' },
      });
      expect(login.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('still answers the forgot call when the mail server is down', async () => {
    const t = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:9' });
    try {
      const admin = await createFirstAdmin(t.app);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/Registration/forgotpassword',
        payload: { email: admin.email },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: messages.password.forgotAnswer });
      await t.app.deps.passwordReset.idle();
    } finally {
      await t.close();
    }
  });
});
