import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger } from 'pino';
import { maskLogLine } from './mask-secrets';

export type LogFormat = 'json' | 'pretty';

/**
 * The platform's logger: pino, with every line masked (mask-secrets.ts) just before it is written,
 * whoever wrote it (request log, error handler, workers, child loggers). Build loggers here, not
 * with `pino()` directly, so no line escapes the mask.
 *
 * Without a destination it writes to stdout: JSON lines, or human-readable ones (pino-pretty, in this
 * thread, after the mask) when `format` is `pretty` or, unset, when stdout is a terminal.
 */
export function createLogger(level: string, destination?: DestinationStream, format?: LogFormat): Logger {
  const options = { level, hooks: { streamWrite: maskLogLine } };
  const chosen = format ?? (destination ? 'json' : process.stdout.isTTY ? 'pretty' : 'json');
  if (chosen === 'pretty') return pino(options, prettyStream(destination));
  return destination ? pino(options, destination) : pino(options);
}

/** pino-pretty, loaded only when used (a JSON-logging process never pays for it); colours only on a terminal. */
function prettyStream(destination?: DestinationStream): DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as (options: object) => DestinationStream;
  return pretty({
    colorize: !destination && Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
    singleLine: true,
    sync: true,
    destination: destination ?? 1,
  });
}
