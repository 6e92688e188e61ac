import { WebSocket } from 'ws';
import { extractText, getDocumentProxy } from 'unpdf';
import type { TestApp } from './harness';

/** Opens a participant's meeting link like a browser: returns the cookie the page set (or the page's status). */
export async function openMeetingLink(app: TestApp, link: string): Promise<{ status: number; cookie?: string; location?: string; html: string }> {
  const res = await fetch(`${app.url}${new URL(link).pathname}`, { redirect: 'manual' });
  const setCookie = res.headers.get('set-cookie') ?? undefined;
  return { status: res.status, cookie: setCookie?.split(';')[0], location: res.headers.get('location') ?? undefined, html: await res.text() };
}

export interface SignallingClient {
  socket: WebSocket;
  messages: Array<Record<string, any>>;
  /** Resolves with the first message (already received or still to come) that matches. */
  next(match: (m: Record<string, any>) => boolean): Promise<Record<string, any>>;
  close(): Promise<void>;
}

/** A WebSocket to the meeting's signalling with the participant's cookie, as the page opens it. */
export function connectSignalling(app: TestApp, cookie: string, origin = app.url): Promise<SignallingClient> {
  const socket = new WebSocket(`${app.url.replace('http', 'ws')}/meet/ws`, { headers: { cookie, origin } });
  const messages: Array<Record<string, any>> = [];
  const waiters: Array<{ match: (m: Record<string, any>) => boolean; resolve: (m: Record<string, any>) => void }> = [];
  socket.on('message', (raw) => {
    const message = JSON.parse(raw.toString());
    messages.push(message);
    for (const w of [...waiters]) if (w.match(message)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(message);
    }
  });
  const client: SignallingClient = {
    socket,
    messages,
    next: (match) => {
      const seen = messages.find(match);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ match, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.once('close', () => resolve());
        socket.close();
      }),
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(client));
    socket.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode })));
    socket.once('error', reject);
  });
}

/** The text of a PDF, whitespace collapsed. */
export async function pdfText(bytes: ArrayBuffer | Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}
