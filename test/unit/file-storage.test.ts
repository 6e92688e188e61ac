import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertSafeKey, FILE_LINK_PURPOSE, LocalFileStorage, S3FileStorage } from '../../server/integrations/file-storage';
import { Secrets } from '../../server/platform/domain/secrets';
import { verifyPath } from '../../server/platform/domain/appointments/signed-link';

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
      const store = new LocalFileStorage(dir, secrets);
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
