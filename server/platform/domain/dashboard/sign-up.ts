import { createOrganisation } from '../organisations/organisation';
import { AppError } from '../errors';
import { newId } from '../ids';
import { inUnitOfWork } from '../unit-of-work';
import { isUniqueViolation } from '../../../shared/unique-violation';
import { writeAudit, type RequestOrigin } from './audit';
import { dashboardLink, sendAfterCommit, type DashboardServices } from './dashboard-services';
import { issueEmailToken } from './email-tokens';
import { hashPassword } from './password-hash';
import { checkPassword } from './password-policy';
import { countAccountRequest } from './request-limits';
import { normaliseEmail } from './secret-token';

export interface SignUpOptions {
  email: string;
  password: string;
  organisationName: string;
  origin: RequestOrigin;
}

/**
 * Self-serve sign-up: a new organisation in test mode only (`liveEnabled` false until an operator runs
 * `admin org enable-live`), its first user as owner, and a verification e-mail. An address that already has an
 * account gets an e-mail saying so instead, and the caller gets the same answer either way (no enumeration). Limited
 * per e-mail and per address, whether or not the address has an account.
 */
export async function signUp(services: DashboardServices, options: SignUpOptions): Promise<void> {
  const email = normaliseEmail(options.email);
  const verdict = checkPassword(options.password, { email });
  if (!verdict.ok) throw new AppError('password_rejected', verdict.message!, undefined, { problem: verdict.problem });
  // Counted once the password is acceptable (a rejected one sent nothing), and before the hash: a refused sign-up
  // costs nothing (per e-mail and per address, `request-limits.ts`).
  await countAccountRequest(services.db, 'sign_up', { email, ip: options.origin.ip ?? 'unknown' }, services.clock.now());
  // Hashed before the existence check, so both paths cost the same.
  const passwordHash = await hashPassword(options.password);
  const now = services.clock.now();
  const existing = await services.db.selectFrom('dashboardUsers').select('id').where('email', '=', email).executeTakeFirst();
  if (!existing) {
    try {
      const token = await inUnitOfWork(services.db, async (tx) => {
        const organisation = await createOrganisation(tx, { name: options.organisationName, liveEnabled: false, now });
        const userId = newId();
        await tx.insertInto('dashboardUsers').values({ id: userId, email, passwordHash, emailVerifiedAt: null, createdAt: now.toISOString() }).execute();
        await tx.insertInto('dashboardMemberships').values({ userId, organisationId: organisation.id, role: 'owner', createdAt: now.toISOString() }).execute();
        await writeAudit(tx, { userId, organisationId: organisation.id, action: 'sign_up', target: `user:${userId}`, origin: options.origin, now });
        return issueEmailToken(tx, userId, 'verify_email', now);
      });
      sendAfterCommit(services, {
        to: email,
        subject: 'Verify your e-mail for the dashboard',
        text: `Welcome. Verify your e-mail address to sign in:\n\n${dashboardLink(services, 'verify-email', token)}\n\nThe link works for 24 hours. If you did not sign up, ignore this message.`,
      });
      return;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // A concurrent sign-up with the same address won: fall through to the "already registered" notice.
    }
  }
  sendAfterCommit(services, {
    to: email,
    subject: 'Someone tried to sign up with your e-mail',
    text: `This address already has a dashboard account. Sign in, or reset your password:\n\n${services.baseUrl.replace(/\/$/, '')}/dashboard/forgot-password\n\nIf this was not you, ignore this message.`,
  });
}
