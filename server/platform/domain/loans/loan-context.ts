import type { Executor, Tx } from '../../db/database';
import type { Services } from '../services';
import type { Scope } from './loan';

/**
 * What a loan use case runs with: the database (the request's transaction on writes), the services, the time, the
 * tenant. A use case that writes events asks for a `LoanWriteContext`, whose `db` is a transaction.
 */
export interface LoanContext<D extends Executor = Executor> {
  db: D;
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

/** A loan context inside a unit of work: what every use case that emits an event takes. */
export type LoanWriteContext = LoanContext<Tx>;
