import pino, { type DestinationStream, type Logger } from 'pino';
import { maskLogLine } from './mask-secrets';

/**
 * The platform's logger: pino, with every line masked (mask-secrets.ts) just before it is written,
 * whoever wrote it (request log, error handler, workers, child loggers). Build loggers here, not
 * with `pino()` directly, so no line escapes the mask.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, hooks: { streamWrite: maskLogLine } };
  return destination ? pino(options, destination) : pino(options);
}
