import { z } from 'zod';
import { actOnLoan } from '../../domain/dashboard/loan-actions';
import { createCheckoutLink, textCheckoutLink } from '../../domain/dashboard/checkout-links';
import { can } from '../../domain/dashboard/permissions';
import { findOrganisation } from '../../domain/organisations/organisation';
import { preapprovalFunnel } from '../../domain/loans/funnel';
import { LOAN_STATUSES, PREAPPROVAL_STATUSES, listLoansPage, listPreapprovalsPage } from '../../domain/loans/loan-lists';
import { getLoanTimeline, type LoanAction } from '../../domain/loans/loan-timeline';
import { IdParams } from '../schemas';
import type { DashboardArea } from './kit';
import { PageQuery, decodeCursor, pageOf } from './keyset';

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day as YYYY-MM-DD').refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'not a calendar day');
const Reference = z.string().trim().min(1).max(160);
const ListFilters = {
  from: Day.optional(),
  to: Day.optional(),
  q: Reference.optional().or(z.literal('').transform(() => undefined)),
};
const LoansQuery = PageQuery.extend({
  status: z.enum(LOAN_STATUSES).optional().or(z.literal('').transform(() => undefined)),
  product: z.string().uuid().optional().or(z.literal('').transform(() => undefined)),
  ...ListFilters,
});
const PreapprovalsQuery = PageQuery.extend({ status: z.enum(PREAPPROVAL_STATUSES).optional().or(z.literal('').transform(() => undefined)), ...ListFilters });
const EmptyBody = z.object({}).strict();
const ActionBody = z.object({ reason: z.string().trim().min(1).max(500).optional(), notes: z.string().trim().max(1000).optional() }).strict();

const ACTION_MESSAGES: Record<LoanAction, string> = {
  approve: 'Loan approved; offer issued',
  reject: 'Loan rejected',
  cancel: 'Loan cancelled',
  disburse: 'Loan disbursed',
};

/**
 * Loans and pre-approvals: keyset-paged lists with filters and search by reference, the pre-approval
 * funnel, a loan's page with its whole timeline, and the four actions the partner API allows (approve, reject, cancel,
 * disburse) through the same use cases, audited. Reads need `loans.read` (every role), actions `loans.act` (owner, admin).
 */
export const loansRoutes: DashboardArea = (router, kit) => {
  const { platform } = kit;

  router.get('/loans', async (req, res) => {
    const { session, mode } = await kit.caller(req, 'loans.read');
    const query = kit.parse(LoansQuery, req.query, 'query');
    const after = decodeCursor(query.cursor);
    const rows = await listLoansPage(
      platform.db,
      { organisationId: session.organisationId, mode },
      { status: query.status, productId: query.product, from: query.from, to: query.to, q: query.q },
      { limit: query.limit, after },
    );
    kit.page(res, 'Loans.', pageOf(rows, query.limit, (row) => ({ at: row.createdAt, id: row.id })));
  });

  router.get('/loans/funnel', async (req, res) => {
    const { session, mode } = await kit.caller(req, 'loans.read');
    kit.ok(res, 200, 'Pre-approval funnel.', await preapprovalFunnel(platform.db, { organisationId: session.organisationId, mode }));
  });

  /** The organisation's products (id and name), for the list's product filter. */
  router.get('/loans/products', async (req, res) => {
    const { session } = await kit.caller(req, 'loans.read');
    const rows = await platform.db.selectFrom('loanProducts').select(['id', 'code', 'name']).where('organisationId', '=', session.organisationId).orderBy('name').limit(200).execute();
    kit.ok(res, 200, 'Products.', rows);
  });

  router.get('/loans/:id', async (req, res) => {
    const { session, mode } = await kit.caller(req, 'loans.read');
    const { id } = kit.parse(IdParams, req.params, 'query');
    const timeline = await getLoanTimeline(platform.db, platform.dialect, platform, { organisationId: session.organisationId, mode }, id, platform.clock.now());
    // The borrower's link opens their checkout: only a role that may act on the loan (and so send it) sees it.
    const loan = can(session.role, 'loans.act') ? timeline.loan : { ...timeline.loan, applicationUrl: null };
    kit.ok(res, 200, 'Loan.', { ...timeline, loan });
  });

  /** A new checkout link, shown once, for the member to pass on (the partner API's mint). */
  router.post('/loans/:id/checkout-link', async (req, res) => {
    const { session, mode, origin } = await kit.caller(req, 'loans.act');
    const { id } = kit.parse(IdParams, req.params, 'query');
    kit.parse(EmptyBody, req.body);
    const link = await createCheckoutLink(platform.db, { secrets: platform.secrets, baseUrl: platform.baseUrl, settings: platform.config }, { userId: session.userId, scope: { organisationId: session.organisationId, mode }, origin }, id, platform.clock.now());
    res.setHeader('Cache-Control', 'no-store');
    kit.ok(res, 201, 'A new checkout link: pass it to the borrower.', link);
  });

  /** Texts the borrower a new link at the phone on record for the loan (the checkout's renewal, its limits). */
  router.post('/loans/:id/checkout-link/text', async (req, res) => {
    const { session, mode, origin } = await kit.caller(req, 'loans.act');
    const { id } = kit.parse(IdParams, req.params, 'query');
    kit.parse(EmptyBody, req.body);
    const organisation = await findOrganisation(platform.db, session.organisationId);
    const sent = await textCheckoutLink(
      { db: platform.db, secrets: platform.secrets, sms: platform.sms, baseUrl: platform.baseUrl, settings: platform.config },
      { userId: session.userId, scope: { organisationId: session.organisationId, mode }, origin },
      id,
      { organisationName: organisation?.name ?? '', now: platform.clock.now() },
    );
    kit.ok(res, 200, `A new link was texted to the borrower (${sent.sentTo}).`, sent);
  });

  for (const action of ['approve', 'reject', 'cancel', 'disburse'] as const) {
    router.post(`/loans/:id/${action}`, async (req, res) => {
      const { session, mode, origin } = await kit.caller(req, 'loans.act');
      const { id } = kit.parse(IdParams, req.params, 'query');
      const body = kit.parse(ActionBody, req.body);
      const { loan, changed } = await actOnLoan(
        platform.db,
        platform,
        { userId: session.userId, scope: { organisationId: session.organisationId, mode }, origin },
        platform.clock.now(),
        id,
        action,
        body,
      );
      kit.ok(res, 200, changed ? ACTION_MESSAGES[action] : 'Nothing to change: the loan was already in that state', loan);
    });
  }

  router.get('/preapprovals', async (req, res) => {
    const { session, mode } = await kit.caller(req, 'loans.read');
    const query = kit.parse(PreapprovalsQuery, req.query, 'query');
    const after = decodeCursor(query.cursor);
    const rows = await listPreapprovalsPage(
      platform.db,
      { organisationId: session.organisationId, mode },
      { status: query.status, from: query.from, to: query.to, q: query.q },
      { limit: query.limit, after },
    );
    kit.page(res, 'Pre-approvals.', pageOf(rows, query.limit, (row) => ({ at: row.createdAt, id: row.id })));
  });
};
