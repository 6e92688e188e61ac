import type { Db } from '../../db/database';
import { hashCheckoutToken, mintCheckoutSession, sessionLifetime } from '../checkout/checkout-session';
import { renewCheckoutSession, type RenewedLink, type RenewPlatform } from '../checkout/renew-checkout-session';
import { AppError } from '../errors';
import { applicationTokenOf, getLoanRow } from '../loans/loan';
import type { Scope } from '../scope';
import { inUnitOfWork } from '../unit-of-work';
import { writeAudit, type RequestOrigin } from './audit';

/** A member acting on a loan of their organisation, in the mode of the request. */
export interface LinkActor {
  userId: string;
  scope: Scope;
  origin: RequestOrigin;
}

export interface NewCheckoutLink {
  url: string;
  expiresAt: string;
  maxExpiresAt: string;
}

/**
 * A new checkout link for the staff member to pass on themselves (the partner API's `POST /v1/loans/{id}/checkout-sessions`,
 * same use case): the link is shown once in the answer and never stored in clear. The session and its audit row
 * `checkout_link_created` commit together. A closed loan: 409 `invalid_loan_state`; another organisation's: 404.
 */
export function createCheckoutLink(db: Db, platform: Pick<RenewPlatform, 'secrets' | 'baseUrl' | 'settings'>, actor: LinkActor, loanId: string, now: Date): Promise<NewCheckoutLink> {
  return inUnitOfWork(db, async (tx) => {
    const loan = await getLoanRow(tx, actor.scope, loanId);
    const session = await mintCheckoutSession(tx, { secrets: platform.secrets, lifetime: sessionLifetime(platform.settings), baseUrl: platform.baseUrl, loan, source: 'partner', now });
    await writeAudit(tx, { userId: actor.userId, organisationId: actor.scope.organisationId, action: 'checkout_link_created', target: `loan:${loan.id}`, origin: actor.origin, now });
    return { url: session.url, expiresAt: session.expiresAt, maxExpiresAt: session.maxExpiresAt };
  });
}

/**
 * Texts the borrower a new link: the checkout's own "text me a new link" (`renewCheckoutSession`), so the text goes only
 * to the borrower's phone on record for this loan, under the same per-loan limits (one per 10 minutes, three a UTC
 * day, 429 `checkout_renew_limit`), and the new link takes the place of the one behind `applicationUrl`. It renews the
 * loan's application session when it has one, else its newest session; a loan that never had a checkout link has
 * nothing to renew (409 `invalid_loan_state`: make a link first). The audit row `checkout_link_texted` follows the text.
 */
export async function textCheckoutLink(
  platform: RenewPlatform,
  actor: LinkActor,
  loanId: string,
  options: { organisationName: string; now: Date },
): Promise<RenewedLink> {
  const { db, secrets } = platform;
  const loan = await getLoanRow(db, actor.scope, loanId);
  const application = applicationTokenOf(loan, secrets);
  const sessions = db.selectFrom('checkoutSessions').select(['id']).where('loanId', '=', loan.id).where('organisationId', '=', actor.scope.organisationId).where('mode', '=', actor.scope.mode);
  const session =
    (application ? await sessions.where('tokenHash', '=', hashCheckoutToken(secrets, application)).executeTakeFirst() : undefined) ??
    (await sessions.orderBy('createdAt', 'desc').orderBy('id', 'desc').executeTakeFirst());
  if (!session) throw new AppError('invalid_loan_state', 'This loan has no checkout link yet: make a link first, then it can be texted again.');
  const sent = await renewCheckoutSession(
    platform,
    { sessionId: session.id, loanId: loan.id, borrowerId: loan.borrowerId, organisationId: actor.scope.organisationId, mode: actor.scope.mode },
    options,
  );
  await writeAudit(db, { userId: actor.userId, organisationId: actor.scope.organisationId, action: 'checkout_link_texted', target: `loan:${loan.id}`, origin: actor.origin, now: options.now });
  return sent;
}
