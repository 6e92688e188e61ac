import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { loadOnce } from '../shared/load-once';
import { ensurePrivateDirectoryAsync, PRIVATE_FILE_MODE, writePrivateFile } from '../shared/private-files';
import type { FileStorage, LinkSigner } from '../platform/domain/ports';

export type { FileStorage };

/** Keys are slash-separated segments of letters, digits, dot, dash and underscore: never `..`, never absolute. */
export function assertSafeKey(key: string): void {
  if (!/^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/.test(key) || key.split('/').some((s) => s === '..' || s === '.')) {
    throw new Error(`unsafe storage key: ${key}`);
  }
}

/**
 * Files under one directory; links point at the platform's own `/files/<key>` route, signed by the platform (`signLink`).
 * Recordings are private: folders are created 0700 and files 0600.
 */
export class LocalFileStorage implements FileStorage {
  readonly kind = 'local' as const;
  constructor(
    private readonly root: string,
    private readonly signLink: LinkSigner,
  ) {}

  pathOf(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, body: Buffer, _contentType: string): Promise<void> {
    const file = this.pathOf(key);
    await ensurePrivateDirectoryAsync(path.dirname(file));
    // Write then rename: a reader never sees half a file.
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    await writePrivateFile(temporary, body);
    await fs.rename(temporary, file);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => fs.rm(this.pathOf(key), { force: true })));
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await fs.stat(this.pathOf(key))).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async getStream(key: string): Promise<Readable | null> {
    try {
      const handle = await fs.open(this.pathOf(key), 'r');
      return handle.createReadStream();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async putStream(key: string, body: Readable, _contentType: string, contentLength: number): Promise<void> {
    const file = this.pathOf(key);
    await ensurePrivateDirectoryAsync(path.dirname(file));
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await pipeline(body, createWriteStream(temporary, { flags: 'wx', mode: PRIVATE_FILE_MODE }));
      await fs.chmod(temporary, PRIVATE_FILE_MODE);
      const written = (await fs.stat(temporary)).size;
      if (written !== contentLength) throw new Error(`putStream ${key}: ${written} bytes written, ${contentLength} announced`);
      await fs.rename(temporary, file);
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
  }

  async signedUrl(key: string, options: { baseUrl: string; now: Date; ttlSeconds: number; contentType: string }): Promise<string> {
    assertSafeKey(key);
    return this.signLink(`/files/${key}`, { baseUrl: options.baseUrl, now: options.now, ttlSeconds: options.ttlSeconds });
  }
}

export interface S3Options {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

interface S3Sdk {
  client: S3Client;
  s3: typeof import('@aws-sdk/client-s3');
  getSignedUrl: typeof import('@aws-sdk/s3-request-presigner').getSignedUrl;
}

/**
 * An S3-compatible bucket; links are the store's own presigned GET URLs (the platform serves nothing).
 * The AWS SDK (some 20 MB of a process's memory) is loaded on first use, so processes that store
 * nothing in S3 never load it.
 */
export class S3FileStorage implements FileStorage {
  readonly kind = 's3' as const;
  constructor(private readonly options: S3Options) {}

  private readonly load = loadOnce(async (): Promise<S3Sdk> => {
    const s3 = await import('@aws-sdk/client-s3');
    const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
    const { region, endpoint, forcePathStyle, accessKeyId, secretAccessKey } = this.options;
    const client = new s3.S3Client({
      region,
      endpoint,
      forcePathStyle,
      credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    });
    return { client, s3, getSignedUrl };
  });

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertSafeKey(key);
    const { client, s3 } = await this.load();
    await client.send(new s3.PutObjectCommand({ Bucket: this.options.bucket, Key: key, Body: body, ContentType: contentType }));
  }

  async get(key: string): Promise<Buffer | null> {
    assertSafeKey(key);
    const { client, s3 } = await this.load();
    try {
      const out = await client.send(new s3.GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return out.Body ? Buffer.from(await out.Body.transformToByteArray()) : null;
    } catch (error) {
      if ((error as { name?: string }).name === 'NoSuchKey') return null;
      throw error;
    }
  }

  async delete(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    keys.forEach(assertSafeKey);
    const { client, s3 } = await this.load();
    for (let i = 0; i < keys.length; i += 1000) {
      await client.send(new s3.DeleteObjectsCommand({ Bucket: this.options.bucket, Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })) } }));
    }
  }

  async size(key: string): Promise<number | null> {
    assertSafeKey(key);
    const { client, s3 } = await this.load();
    try {
      const out = await client.send(new s3.HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return out.ContentLength ?? 0;
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === 'NotFound' || name === 'NoSuchKey') return null;
      throw error;
    }
  }

  async getStream(key: string): Promise<Readable | null> {
    assertSafeKey(key);
    const { client, s3 } = await this.load();
    try {
      const out = await client.send(new s3.GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      // In Node the SDK's body is an http.IncomingMessage (a Readable).
      return (out.Body as Readable | undefined) ?? null;
    } catch (error) {
      if ((error as { name?: string }).name === 'NoSuchKey') return null;
      throw error;
    }
  }

  /** One PutObject with the stream as its body: S3 needs the length up front, which is why the port takes it. */
  async putStream(key: string, body: Readable, contentType: string, contentLength: number): Promise<void> {
    assertSafeKey(key);
    const { client, s3 } = await this.load();
    await client.send(new s3.PutObjectCommand({ Bucket: this.options.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: contentLength }));
  }

  /** The store's own presigned URL; its expiry runs on the real clock (the SDK signs with the system time). */
  async signedUrl(key: string, options: { baseUrl: string; now: Date; ttlSeconds: number; contentType: string }): Promise<string> {
    assertSafeKey(key);
    const { client, s3, getSignedUrl } = await this.load();
    return getSignedUrl(client, new s3.GetObjectCommand({ Bucket: this.options.bucket, Key: key, ResponseContentType: options.contentType }), { expiresIn: options.ttlSeconds });
  }
}
