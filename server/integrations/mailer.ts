import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import { loadOnce } from '../shared/load-once';
import { ensurePrivateDirectoryAsync, writePrivateFile } from '../shared/private-files';
import type { MailMessage, Mailer } from '../platform/domain/ports';

export type { MailMessage, Mailer };

/**
 * The sandbox mailer: each message becomes one JSON file in a folder (the "inbox"), named so
 * that a directory listing is in sending order. Nothing leaves the machine. Messages carry sign-in,
 * reset and invitation links: the folder is owner-only (0700), each file 0600.
 */
export class SandboxMailer implements Mailer {
  private sequence = 0;

  constructor(
    private readonly dir: string,
    private readonly from: string,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await ensurePrivateDirectoryAsync(this.dir);
    const sentAt = new Date().toISOString();
    this.sequence += 1;
    const order = String(this.sequence).padStart(6, '0');
    const file = path.join(this.dir, `${sentAt.replace(/[:.]/g, '-')}-${order}-${crypto.randomBytes(4).toString('hex')}.json`);
    // Written aside, then renamed: a reader of the inbox (tests, a developer's watcher) never sees half a message.
    await writePrivateFile(`${file}.part`, `${JSON.stringify({ from: this.from, ...message, sentAt }, null, 2)}\n`);
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

/** The newest `limit` messages of the sandbox inbox, newest first (the sandbox inbox page); a file being written is skipped. */
export async function readNewestSandboxMail(dir: string, limit = 50): Promise<Array<MailMessage & { from: string; sentAt: string }>> {
  const names = await fs.promises.readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const newest = names.filter((name) => name.endsWith('.json')).sort().reverse().slice(0, limit);
  return Promise.all(newest.map(async (name) => JSON.parse(await fs.promises.readFile(path.join(dir, name), 'utf8'))));
}
