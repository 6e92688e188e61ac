import type { Executor } from '../../db/database';
import type { Platform } from '../../platform';
import type { Scope } from './loan';

/** What a loan use case runs with: the request's transaction, the services, the time, the tenant. */
export interface LoanContext {
  db: Executor;
  platform: Pick<Platform, 'secrets' | 'aml' | 'identity' | 'insurer' | 'config' | 'baseUrl'>;
  now: Date;
  scope: Scope;
  /** Masked public key of the calling credential, recorded on evidence. */
  actor: string;
  /**
   * Work for after the transaction commits (a text to the borrower): never inside it, never when it
   * rolls back. Failures are logged, not answered. Absent where nobody runs it (then it is skipped).
   */
  afterCommit?: (work: (services: Pick<Platform, 'sms'>) => Promise<void>) => void;
}
