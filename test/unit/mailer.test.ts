import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSandboxInbox, SandboxMailer, SmtpMailer } from '../../server/integrations/mailer';

/** A loopback SMTP server speaking just enough of RFC 5321 to take one message. */
async function startSmtpServer() {
  const messages: Array<{ from: string; to: string[]; data: string }> = [];
  const server = net.createServer((socket) => {
    let from = '';
    const to: string[] = [];
    let data: string | undefined;
    let buffer = '';
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data !== undefined) {
          if (line === '.') {
            messages.push({ from, to: [...to], data });
            data = undefined;
            socket.write('250 OK queued\r\n');
          } else data += `${line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 test\r\n');
        else if (verb === 'MAIL') (from = line.slice(10).trim()), socket.write('250 OK\r\n');
        else if (verb === 'RCPT') to.push(line.slice(8).trim()), socket.write('250 OK\r\n');
        else if (verb === 'DATA') (data = ''), socket.write('354 go ahead\r\n');
        else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as net.AddressInfo).port, messages, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('mailer adapters', () => {
  it('the SMTP adapter delivers through an SMTP server (nodemailer)', async () => {
    const smtp = await startSmtpServer();
    try {
      const mailer = new SmtpMailer(`smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`, 'Platform <no-reply@lending.example>');
      await mailer.send({ to: 'ops@partner.example', subject: 'Webhook endpoint disabled', text: 'It answered 410.' });
      expect(smtp.messages).toHaveLength(1);
      expect(smtp.messages[0]!.from).toBe('<no-reply@lending.example>');
      expect(smtp.messages[0]!.to).toEqual(['<ops@partner.example>']);
      expect(smtp.messages[0]!.data).toContain('Subject: Webhook endpoint disabled');
      expect(smtp.messages[0]!.data).toContain('It answered 410.');
    } finally {
      await smtp.close();
    }
  });

  it('the sandbox adapter keeps each message as a file, read back in sending order', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-'));
    try {
      const mailer = new SandboxMailer(dir, 'Platform <no-reply@lending.example>');
      await mailer.send({ to: 'a@partner.example', subject: 'first', text: 'one' });
      await mailer.send({ to: 'b@partner.example', subject: 'second', text: 'two' });
      expect(readSandboxInbox(dir).map((m) => [m.to, m.subject, m.from])).toEqual([
        ['a@partner.example', 'first', 'Platform <no-reply@lending.example>'],
        ['b@partner.example', 'second', 'Platform <no-reply@lending.example>'],
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
