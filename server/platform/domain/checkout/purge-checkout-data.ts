import type { Db } from '../../db/database';

/**
 * Deletes what the checkout no longer needs: send windows older than their hour (renewal windows after their day), OTP challenges
 * (hashes only) and passkey challenges a day after they expired (a used nonce lives on in the
 * consent's passkey evidence), and sandbox texts after a week. Sessions stay: consent evidence
 * names them (`recordedBy`).
 */
export async function purgeCheckoutData(db: Db, now: Date): Promise<{ windows: number; challenges: number; passkeyChallenges: number; sandboxSms: number }> {
  const hourAgo = new Date(now.getTime() - 3_600_000).toISOString();
  const dayAgo = new Date(now.getTime() - 86_400_000).toISOString();
  const weekAgo = new Date(now.getTime() - 7 * 86_400_000).toISOString();
  const windows = await db.deleteFrom('otpSendWindows').where('windowStart', '<', hourAgo).executeTakeFirst();
  // A renewal count is for its UTC day: done with once that day has passed.
  const renewals = await db.deleteFrom('checkoutRenewals').where('dayStart', '<', new Date(now.getTime() - 2 * 86_400_000).toISOString()).executeTakeFirst();
  const challenges = await db.deleteFrom('otpChallenges').where('expiresAt', '<', dayAgo).executeTakeFirst();
  const passkeyChallenges = await db.deleteFrom('passkeyChallenges').where('expiresAt', '<', dayAgo).executeTakeFirst();
  const sandboxSms = await db.deleteFrom('sandboxSms').where('createdAt', '<', weekAgo).executeTakeFirst();
  return {
    windows: Number(windows.numDeletedRows) + Number(renewals.numDeletedRows),
    challenges: Number(challenges.numDeletedRows),
    passkeyChallenges: Number(passkeyChallenges.numDeletedRows),
    sandboxSms: Number(sandboxSms.numDeletedRows),
  };
}
