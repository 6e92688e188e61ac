import { maskPublicKey } from '../domain/api-keys/api-key';
import type { LoanContext } from '../domain/loans/loan-context';
import type { Platform } from '../platform';
import type { HandlerContext } from './route';

type Ctx = HandlerContext<unknown, unknown, unknown>;

/** A loan use case's context as an HTTP request gives it (the platform whole: each use case takes what it declares). */
export type HttpLoanContext = LoanContext & { platform: Platform };

/** A partner's call: the credential's organisation and mode, recorded as its masked public key; texts after commit. */
export function loanContext(ctx: Ctx): HttpLoanContext {
  return { db: ctx.db, platform: ctx.platform, now: ctx.now, scope: ctx.auth, actor: maskPublicKey(ctx.auth.publicKey), afterCommit: ctx.afterCommit };
}

/** A borrower-session call: the session's organisation and mode, recorded as the session. */
export function sessionLoanContext(ctx: Ctx): HttpLoanContext {
  const session = ctx.auth.checkoutSession!;
  return { db: ctx.db, platform: ctx.platform, now: ctx.now, scope: { organisationId: session.organisationId, mode: session.mode }, actor: `checkout-session:${session.sessionId}` };
}
