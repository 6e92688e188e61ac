import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertSafeKey, LocalFileStorage, S3FileStorage } from '../../server/integrations/file-storage';
import { Secrets } from '../../server/platform/domain/secrets';
import { FILE_LINK_PURPOSE, fileLinkSigner, verifyPath } from '../../server/platform/domain/appointments/signed-link';

const secrets = new Secrets('unit-test-master-key-0123456789abcdef');

describe('file storage keys', () => {
  it.each(['../etc/passwd', '/abs', 'a/../b', 'a//b', 'a/./b', '', 'a\\b', 'a/b/'])('refuses the unsafe key %j', (key) => {
    expect(() => assertSafeKey(key)).toThrow(/unsafe storage key/);
  });
  it('accepts recording keys', () => {
    expect(() => assertSafeKey('recordings/7b0e-1/9c2d-2/chunk-000001')).not.toThrow();
  });
});

describe('the local file store', () => {
  it('writes, reads, deletes and signs links that verify only for their own path and until they expire', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'files-'));
    try {
      const store = new LocalFileStorage(dir, fileLinkSigner(secrets));
      await store.put('recordings/a/b.webm', Buffer.from('audio'), 'audio/webm');
      expect((await store.get('recordings/a/b.webm'))?.toString()).toBe('audio');
      expect(await store.get('recordings/a/missing.webm')).toBeNull();
      const now = new Date('2026-12-01T10:00:00Z');
      const url = new URL(await store.signedUrl('recordings/a/b.webm', { baseUrl: 'https://health.example', now, ttlSeconds: 60, contentType: 'audio/webm' }));
      expect(url.pathname).toBe('/files/recordings/a/b.webm');
      const link = { path: url.pathname, expires: url.searchParams.get('expires'), signature: url.searchParams.get('signature') };
      expect(verifyPath(secrets, FILE_LINK_PURPOSE, link, now)).toBe(true);
      expect(verifyPath(secrets, FILE_LINK_PURPOSE, { ...link, path: '/files/recordings/a/other.webm' }, now)).toBe(false);
      expect(verifyPath(secrets, 'prescription-link', link, now)).toBe(false);
      expect(verifyPath(secrets, FILE_LINK_PURPOSE, link, new Date(now.getTime() + 61_000))).toBe(false);
      await store.delete(['recordings/a/b.webm']);
      expect(await store.get('recordings/a/b.webm')).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the S3-compatible store', () => {
  it('presigns GET links with the official presigner (path style, custom endpoint), offline', async () => {
    const store = new S3FileStorage({ bucket: 'recordings', region: 'eu-west-1', endpoint: 'http://127.0.0.1:9000', accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', forcePathStyle: true });
    const url = new URL(await store.signedUrl('recordings/a/b.webm', { baseUrl: '', now: new Date(), ttlSeconds: 300, contentType: 'audio/webm' }));
    expect(url.origin).toBe('http://127.0.0.1:9000');
    expect(url.pathname).toBe('/recordings/recordings/a/b.webm');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(url.searchParams.get('response-content-type')).toBe('audio/webm');
  });
});

/** Decodes S3's streaming upload body (`content-encoding: aws-chunked`: hex size, CRLF, data, CRLF, …, 0, trailers). */
function decodeAwsChunked(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = raw.indexOf('\r\n', at);
    const size = parseInt(raw.subarray(at, eol).toString('latin1').split(';')[0]!, 16);
    if (size === 0) return Buffer.concat(parts);
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

describe('the S3 store streams (against a local fake bucket on loopback)', () => {
  it('puts a stream with its length, and reads size and stream back; a missing key is null', async () => {
    const objects = new Map<string, Buffer>();
    const puts: http.IncomingHttpHeaders[] = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const key = req.url!.split('?')[0]!;
        if (req.method === 'PUT') {
          puts.push(req.headers);
          const raw = Buffer.concat(chunks);
          objects.set(key, req.headers['content-encoding'] === 'aws-chunked' ? decodeAwsChunked(raw) : raw);
          res.writeHead(200, { etag: '"e"' });
          return res.end();
        }
        const object = objects.get(key);
        if (!object) {
          res.writeHead(404, { 'content-type': 'application/xml' });
          return res.end(req.method === 'HEAD' ? undefined : '<Error><Code>NoSuchKey</Code><Message>none</Message></Error>');
        }
        res.writeHead(200, { 'content-length': String(object.length), 'content-type': 'audio/webm' });
        res.end(req.method === 'HEAD' ? undefined : object);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const store = new S3FileStorage({ bucket: 'recordings', region: 'eu-west-1', endpoint: `http://127.0.0.1:${port}`, accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', forcePathStyle: true });
      await store.putStream('r/a.webm', Readable.from([Buffer.from('hello '), Buffer.from('world')]), 'audio/webm', 11);
      // The body went as a stream (no buffered Content-Length body) announcing its decoded length.
      expect(puts[0]!['x-amz-decoded-content-length'] ?? puts[0]!['content-length']).toBe('11');
      expect(objects.get('/recordings/r/a.webm')!.toString()).toBe('hello world');
      expect(await store.size('r/a.webm')).toBe(11);
      expect(await store.size('r/missing.webm')).toBeNull();
      const stream = await store.getStream('r/a.webm');
      const read: Buffer[] = [];
      for await (const piece of stream!) read.push(piece as Buffer);
      expect(Buffer.concat(read).toString()).toBe('hello world');
      expect(await store.getStream('r/missing.webm')).toBeNull();
    } finally {
      server.close();
    }
  });
});
