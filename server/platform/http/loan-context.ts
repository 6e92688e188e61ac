import type { Executor } from '../db/database';
import { maskPublicKey } from '../domain/api-keys/api-key';
import type { LoanContext } from '../domain/loans/loan-context';
import type { Platform } from '../platform';
import type { HandlerContext } from './route';

/** A loan use case's context as an HTTP request gives it (the platform whole: each use case takes what it declares). On a write route `db` is the request's transaction. */
export type HttpLoanContext<D extends Executor = Executor> = LoanContext<D> & { platform: Platform };

/** A partner's call: the credential's organisation and mode, recorded as its masked public key; texts after commit. */
export function loanContext<D extends Executor>(ctx: HandlerContext<unknown, unknown, unknown, D>): HttpLoanContext<D> {
  return { db: ctx.db, platform: ctx.platform, now: ctx.now, scope: ctx.auth, actor: maskPublicKey(ctx.auth.publicKey), afterCommit: ctx.afterCommit };
}

/** A borrower-session call: the session's organisation and mode, recorded as the session. */
export function sessionLoanContext<D extends Executor>(ctx: HandlerContext<unknown, unknown, unknown, D>): HttpLoanContext<D> {
  const session = ctx.auth.checkoutSession!;
  return { db: ctx.db, platform: ctx.platform, now: ctx.now, scope: { organisationId: session.organisationId, mode: session.mode }, actor: `checkout-session:${session.sessionId}` };
}
