import type { LoansTable } from '../../db/schema';
import type { LoanWriteContext } from '../loans/loan-context';

/**
 * A product built on lending loans (patient financing) follows them through their events instead of lending
 * asking after it: the lending core emits, the follower hears each event of the loans it follows in the
 * transaction that emits it, so its own state and events commit — or roll back — with the loan's change.
 *
 * A followed loan's events are its follower's to tell: the lending API's own event is not written for it (a
 * patient-financing loan speaks the financing API's events to its sdk endpoints, never the lending ones).
 */
export interface LoanFollower {
  /** Registration is by name, so building several platforms in one process registers a follower once. */
  name: string;
  /** Whether this follower follows the loan (cheap and synchronous: asked for every loan event). */
  follows(loan: LoansTable): boolean;
  /** Hears one event of a followed loan, in the emitting transaction (`ctx.db`); a throw rolls the change back. */
  follow(ctx: LoanWriteContext, event: string, loan: LoansTable, extra: Record<string, unknown>): Promise<void>;
}

const followers = new Map<string, LoanFollower>();

/** Called by the composition root (`createPlatform`) for each product that follows lending loans. */
export function registerLoanFollower(follower: LoanFollower): void {
  followers.set(follower.name, follower);
}

/**
 * Tells the loan's followers about an event, in the caller's transaction. Answers whether the loan is followed
 * (then the lending API's event is not written). Events the lending API has no name for (`loan.repayment.due`)
 * are told only through here.
 */
export async function tellLoanFollowers(ctx: LoanWriteContext, event: string, loan: LoansTable, extra: Record<string, unknown> = {}): Promise<boolean> {
  let followed = false;
  for (const follower of followers.values()) {
    if (!follower.follows(loan)) continue;
    followed = true;
    await follower.follow(ctx, event, loan, extra);
  }
  return followed;
}
