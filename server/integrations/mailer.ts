import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import { loadOnce } from '../shared/load-once';
import type { MailMessage, Mailer } from '../platform/domain/ports';

export type { MailMessage, Mailer };

/**
 * The sandbox mailer: each message becomes one JSON file in a folder (the "inbox"), named so
 * that a directory listing is in sending order. Nothing leaves the machine.
 */
export class SandboxMailer implements Mailer {
  private sequence = 0;

  constructor(
    private readonly dir: string,
    private readonly from: string,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await fs.promises.mkdir(this.dir, { recursive: true });
    const sentAt = new Date().toISOString();
    this.sequence += 1;
    const order = String(this.sequence).padStart(6, '0');
    const file = path.join(this.dir, `${sentAt.replace(/[:.]/g, '-')}-${order}-${crypto.randomBytes(4).toString('hex')}.json`);
    // Written aside, then renamed: a reader of the inbox (tests, a developer's watcher) never sees half a message.
    await fs.promises.writeFile(`${file}.part`, `${JSON.stringify({ from: this.from, ...message, sentAt }, null, 2)}\n`);
    await fs.promises.rename(`${file}.part`, file);
  }
}

/** SMTP through nodemailer (`SMTP_URL`, e.g. `smtps://user:pass@smtp.example.com`), loaded on the first message. */
export class SmtpMailer implements Mailer {
  private readonly transport: () => Promise<Transporter>;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = loadOnce(() => import('nodemailer').then((nodemailer) => nodemailer.default.createTransport(url)));
  }

  async send(message: MailMessage): Promise<void> {
    const transport = await this.transport();
    await transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text });
  }
}

/** Reads the sandbox inbox, oldest first (tests and the demo use it). */
export function readSandboxInbox(dir: string): Array<MailMessage & { from: string; sentAt: string }> {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')));
}
