import type { Executor } from '../../db/database';
import type { Services } from '../services';
import type { Scope } from './loan';

/** What a loan use case runs with: the request's transaction, the services, the time, the tenant. */
export interface LoanContext {
  db: Executor;
  platform: Pick<Services, 'secrets' | 'aml' | 'identity' | 'insurer' | 'settings' | 'baseUrl'>;
  now: Date;
  scope: Scope;
  /** Masked public key of the calling credential, recorded on evidence. */
  actor: string;
  /**
   * Work for after the transaction commits (a text to the borrower): never inside it, never when it
   * rolls back. Failures are logged, not answered. Absent where nobody runs it (then it is skipped).
   */
  afterCommit?: (work: (services: Pick<Services, 'sms'>) => Promise<void>) => void;
}
