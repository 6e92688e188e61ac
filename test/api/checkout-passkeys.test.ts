import { verifyAuthenticationResponse } from '@simplewebauthn/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractText } from 'unpdf';
import { FakeClock } from '../../server/integrations/clock';
import { consumeChallenge, credentialFingerprint } from '../../server/platform/domain/passkeys/passkey';
import { purgeCheckoutData } from '../../server/platform/domain/checkout/purge-checkout-data';
import { offerSigningChallenge } from '../../server/shared/offer-signing-challenge';
import { client, startTestApp, type TestApp } from '../support/harness';
import { eventsOf, lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { latestOtp, sessionClient, tokenOf, uniquePhone, verifiedSession } from '../support/checkout';
import { SoftAuthenticator, tamper } from '../support/passkeys';

const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const RP = { rpId: 'checkout.lender.example', origin: 'https://checkout.lender.example' };
const signature = (documentReference: string) => ({
  signatureFullName: 'Ada Obi',
  documentReference,
  ipAddress: '102.89.34.7',
  userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile',
});
type Session = ReturnType<typeof sessionClient>;

/** Registers a passkey for the session's borrower with a software authenticator. */
async function register(session: Session, authenticator = new SoftAuthenticator(RP.origin, RP.rpId)) {
  const issued = await session.post('/v1/checkout/passkeys/registration-challenge', { rpId: RP.rpId });
  expect(issued.status).toBe(201);
  const response = authenticator.register({ challenge: issued.body.data.challenge, userHandle: issued.body.data.user.id });
  const res = await session.post('/v1/checkout/passkeys', { ...RP, response });
  expect(res.status).toBe(201);
  return { authenticator, passkey: res.body.data, challenge: issued.body.data };
}

async function signChallenge(session: Session) {
  const res = await session.post('/v1/checkout/passkeys/sign-challenge', { rpId: RP.rpId });
  expect(res.status).toBe(201);
  return res.body.data as { nonce: string; challenge: string; loanId: string; documentReference: string; allowCredentials: Array<{ id: string }> };
}

/** Everything a refused passkey request must leave as it was. */
async function snapshot(loanId: string) {
  const db = app.platform.db;
  return {
    loan: await db.selectFrom('loans').select(['status', 'termsAcceptedAt']).where('id', '=', loanId).executeTakeFirstOrThrow(),
    consents: await db.selectFrom('loanConsents').select('id').where('loanId', '=', loanId).execute(),
    evidence: await db.selectFrom('loanConsentPasskeys').select('id').where('loanId', '=', loanId).execute(),
    challenges: await db.selectFrom('passkeyChallenges').select(['id', 'consumedAt']).where('loanId', '=', loanId).orderBy('id').execute(),
    passkeys: await db.selectFrom('userPasskeys').select(['id', 'counter', 'lastUsedAt']).orderBy('id').execute(),
    events: (await eventsOf(app, tenant.organisationId)).length,
  };
}

describe('registering a passkey', () => {
  it('when the borrower registers after OTP, then the platform stores the credential against the borrower\'s user and uses the challenge once', async () => {
    const { session, loan } = await verifiedSession(app, tenant);
    const issued = await session.post('/v1/checkout/passkeys/registration-challenge', { rpId: RP.rpId });
    expect(issued.status).toBe(201);
    expect(issued.body.data).toMatchObject({ challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), user: { displayName: 'Ada Obi' }, excludeCredentials: [] });
    expect(issued.body.data.user.name).toMatch(/^Ada Obi \(•••• \d{4}\)$/);
    const authenticator = new SoftAuthenticator(RP.origin, RP.rpId);
    const response = authenticator.register({ challenge: issued.body.data.challenge, userHandle: issued.body.data.user.id });

    const res = await session.post('/v1/checkout/passkeys', { ...RP, response });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ credentialId: response.id, rpId: RP.rpId, counter: 0, transports: ['internal'], deviceType: 'singleDevice', backedUp: false, lastUsedAt: null });
    const borrower = await app.platform.db.selectFrom('borrowers').select('userId').where('id', '=', loan.borrowerId).executeTakeFirstOrThrow();
    const stored = await app.platform.db.selectFrom('userPasskeys').selectAll().where('credentialId', '=', response.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ userId: borrower.userId, rpId: RP.rpId, origin: RP.origin, mode: 'test' });
    expect(Buffer.from(stored.publicKey, 'base64url').length).toBeGreaterThan(60);

    const listed = await session.get(`/v1/checkout/passkeys?rpId=${RP.rpId}`);
    expect(listed.body.data).toMatchObject({ loanId: loan.id, passkeys: [{ credentialId: response.id, publicKey: stored.publicKey }] });
    expect((await session.get('/v1/checkout/passkeys?rpId=other.example')).body.data.passkeys).toEqual([]);

    // The challenge was used: the same response again is refused, and nothing more is stored.
    const again = await session.post('/v1/checkout/passkeys', { ...RP, response });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('passkey_challenge_used');
    // The next challenge excludes the registered passkey; registering the same credential again is refused.
    const next = await session.post('/v1/checkout/passkeys/registration-challenge', { rpId: RP.rpId });
    expect(next.body.data.excludeCredentials).toEqual([{ id: response.id, transports: ['internal'] }]);
    expect((await app.platform.db.selectFrom('userPasskeys').select('id').where('userId', '=', borrower.userId!).execute())).toHaveLength(1);
  });

  it('when the phone is not verified yet, then registration answers 403 checkout_otp_required', async () => {
    const { loan } = await offeredLoan(app, tenant, { phone: uniquePhone() });
    const session = sessionClient(app, tokenOf(loan.applicationUrl));
    const res = await session.post('/v1/checkout/passkeys/registration-challenge', { rpId: RP.rpId });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('checkout_otp_required');
    expect((await session.get('/v1/checkout/passkeys')).body.error).toBe('checkout_otp_required');
  });

  it.each([
    ['another origin in the client data', (a: SoftAuthenticator, c: string) => a.register({ challenge: c, origin: 'https://evil.example' }), 'passkey_verification_failed'],
    ['another relying party in the authenticator data', (a: SoftAuthenticator, c: string) => a.register({ challenge: c, rpId: 'evil.example' }), 'passkey_verification_failed'],
    ['no user verification', (a: SoftAuthenticator, c: string) => a.register({ challenge: c, userVerified: false }), 'passkey_verification_failed'],
    ['a challenge the platform never issued', (a: SoftAuthenticator) => a.register({ challenge: Buffer.alloc(32, 7).toString('base64url') }), 'passkey_challenge_invalid'],
  ])('when the registration has %s, then it is refused with 422 and nothing is stored', async (_name, make, code) => {
    const { session, loan } = await verifiedSession(app, tenant);
    const issued = await session.post('/v1/checkout/passkeys/registration-challenge', { rpId: RP.rpId });
    const before = await snapshot(loan.id);
    const res = await session.post('/v1/checkout/passkeys', { ...RP, response: make(new SoftAuthenticator(RP.origin, RP.rpId), issued.body.data.challenge) });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe(code);
    expect(await snapshot(loan.id)).toEqual(before);
  });

  it('when another session\'s challenge is used, or the challenge has expired, then registration is refused and nothing is stored', async () => {
    const first = await verifiedSession(app, tenant);
    const second = await verifiedSession(app, tenant);
    const issued = await first.session.post('/v1/checkout/passkeys/registration-challenge', { rpId: RP.rpId });
    const response = new SoftAuthenticator(RP.origin, RP.rpId).register({ challenge: issued.body.data.challenge });
    const before = await snapshot(first.loan.id);
    const stolen = await second.session.post('/v1/checkout/passkeys', { ...RP, response });
    expect(stolen.status).toBe(422);
    expect(stolen.body.error).toBe('passkey_challenge_invalid');

    clock.advance(5 * 60_000 + 1);
    const late = await first.session.post('/v1/checkout/passkeys', { ...RP, response });
    expect(late.status).toBe(422);
    expect(late.body.error).toBe('passkey_challenge_expired');
    expect(await snapshot(first.loan.id)).toEqual(before);
  });
});

describe('signing the offer with a passkey', () => {
  it('when the borrower signs with a passkey, then the assertion is verified, stored raw with the consent, independently verifiable, and printed on the signed letter', async () => {
    const { session, loan } = await verifiedSession(app, tenant);
    const { authenticator, passkey } = await register(session);
    const issued = await signChallenge(session);
    expect(issued).toMatchObject({ loanId: loan.id, documentReference: loan.documentReference, allowCredentials: [{ id: passkey.credentialId }] });
    expect(issued.challenge).toBe(offerSigningChallenge({ loanId: loan.id, documentReference: loan.documentReference, nonce: issued.nonce }));
    const response = authenticator.sign({ challenge: issued.challenge });

    const res = await session.post('/v1/checkout/accept', { ...signature(loan.documentReference), passkey: { nonce: issued.nonce, ...RP, response } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ loanId: loan.id, status: 'terms_accepted' });

    const db = app.platform.db;
    const consent = await db.selectFrom('loanConsents').selectAll().where('loanId', '=', loan.id).executeTakeFirstOrThrow();
    expect(consent).toMatchObject({ kind: 'accept', signatureFullName: 'Ada Obi' });
    const evidence = await db.selectFrom('loanConsentPasskeys').selectAll().where('consentId', '=', consent.id).executeTakeFirstOrThrow();
    expect(evidence).toMatchObject({
      loanId: loan.id,
      passkeyId: passkey.id,
      credentialId: passkey.credentialId,
      publicKey: passkey.publicKey,
      rpId: RP.rpId,
      origin: RP.origin,
      challengeVersion: 'lc-offer-signature/v1',
      documentReference: loan.documentReference,
      nonce: issued.nonce,
      challenge: issued.challenge,
      clientDataJson: response.response.clientDataJSON,
      authenticatorData: response.response.authenticatorData,
      signature: response.response.signature,
      userHandle: response.response.userHandle,
      signCount: 1,
      verifiedAt: clock.now().toISOString(),
    });
    expect(Boolean(evidence.verified)).toBe(true);
    expect(Boolean(evidence.userVerified)).toBe(true);

    // Anyone holding the evidence can check it again: derive the challenge from its inputs and verify the signature with the stored key.
    const again = await verifyAuthenticationResponse({
      response: { id: evidence.credentialId, rawId: evidence.credentialId, type: 'public-key', clientExtensionResults: {}, response: { clientDataJSON: evidence.clientDataJson, authenticatorData: evidence.authenticatorData, signature: evidence.signature } },
      expectedChallenge: offerSigningChallenge({ loanId: evidence.loanId, documentReference: evidence.documentReference, nonce: evidence.nonce }),
      expectedOrigin: evidence.origin,
      expectedRPID: evidence.rpId,
      credential: { id: evidence.credentialId, publicKey: new Uint8Array(Buffer.from(evidence.publicKey, 'base64url')), counter: 0 },
      requireUserVerification: true,
    });
    expect(again.verified).toBe(true);

    const nonce = await db.selectFrom('passkeyChallenges').select('consumedAt').where('nonce', '=', issued.nonce).executeTakeFirstOrThrow();
    expect(nonce.consumedAt).toBe(clock.now().toISOString());
    const stored = await db.selectFrom('userPasskeys').select(['counter', 'lastUsedAt']).where('id', '=', passkey.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ counter: 1, lastUsedAt: clock.now().toISOString() });

    const link = await client(app, tenant.test).get(`/v1/loans/${loan.id}/offer-letter`);
    const pdf = await fetch(link.body.data.url);
    expect(pdf.status).toBe(200);
    const { text } = await extractText(new Uint8Array(await pdf.arrayBuffer()), { mergePages: true });
    expect(text).toContain('Accepted electronically by Ada Obi');
    expect(text).toContain('Verified: confirmed with the borrower\'s passkey');
    expect(text).toContain(`Fingerprint ${credentialFingerprint(passkey.credentialId)}`);
    expect(text).toContain(`(${clock.now().toISOString()})`);
  });

  it('when a passkey refusal happens (tampered signature or data, another offer\'s challenge, another origin, no user verification, unknown credential), then 422 and nothing changes; the good assertion then signs', async () => {
    const { session, loan } = await verifiedSession(app, tenant);
    const { authenticator } = await register(session);
    const issued = await signChallenge(session);
    const good = () => authenticator.sign({ challenge: issued.challenge });
    const bad: Array<[string, () => unknown]> = [
      ['tampered signature', () => ({ ...good(), response: { ...good().response, signature: tamper(good().response.signature, 20) } })],
      ['tampered authenticator data', () => ({ ...good(), response: { ...good().response, authenticatorData: tamper(good().response.authenticatorData, 33) } })],
      ['another offer\'s challenge', () => authenticator.sign({ challenge: offerSigningChallenge({ loanId: loan.id, documentReference: `${loan.documentReference}-other`, nonce: issued.nonce }) })],
      ['another origin', () => authenticator.sign({ challenge: issued.challenge, origin: 'https://evil.example' })],
      ['no user verification', () => authenticator.sign({ challenge: issued.challenge, userVerified: false })],
      ['an unknown credential', () => stranger.sign({ challenge: issued.challenge })],
    ];
    // A credential the platform never registered (made on a device, never sent).
    const stranger = new SoftAuthenticator(RP.origin, RP.rpId);
    stranger.register({ challenge: issued.challenge });
    const before = await snapshot(loan.id);
    for (const [name, make] of bad) {
      const response = make();
      const res = await session.post('/v1/checkout/accept', { ...signature(loan.documentReference), passkey: { nonce: issued.nonce, ...RP, response } });
      expect([name, res.status, res.body.error]).toEqual([name, 422, 'passkey_verification_failed']);
      expect(await snapshot(loan.id)).toEqual(before);
    }
    const res = await session.post('/v1/checkout/accept', { ...signature(loan.documentReference), passkey: { nonce: issued.nonce, ...RP, response: good() } });
    expect(res.status).toBe(200);
  });

  it('when one nonce is sent several times at once, then it is used once: one consent, one evidence, one event, and one winner among concurrent consumers', async () => {
    const { session, loan } = await verifiedSession(app, tenant);
    const { authenticator } = await register(session);
    const issued = await signChallenge(session);
    const body = { ...signature(loan.documentReference), passkey: { nonce: issued.nonce, ...RP, response: authenticator.sign({ challenge: issued.challenge }) } };
    const answers = await Promise.all([session.post('/v1/checkout/accept', body), session.post('/v1/checkout/accept', body), session.post('/v1/checkout/accept', body)]);
    expect(answers.some((a) => a.status === 200)).toBe(true);
    for (const a of answers) expect([200, 409]).toContain(a.status);
    expect(await app.platform.db.selectFrom('loanConsentPasskeys').select('id').where('loanId', '=', loan.id).execute()).toHaveLength(1);
    expect(await app.platform.db.selectFrom('loanConsents').select('id').where('loanId', '=', loan.id).execute()).toHaveLength(1);
    expect((await eventsOf(app, tenant.organisationId)).filter((e) => e.name === 'loan.offer.accepted' && e.data.loanId === loan.id)).toHaveLength(1);

    // The platform's conditional UPDATE is what holds: many concurrent consumers, one winner.
    const other = await verifiedSession(app, tenant);
    await register(other.session);
    const fresh = await signChallenge(other.session);
    const row = await app.platform.db.selectFrom('passkeyChallenges').selectAll().where('nonce', '=', fresh.nonce).executeTakeFirstOrThrow();
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => consumeChallenge(app.platform.db, row, clock.now())));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected')) expect((r as PromiseRejectedResult).reason.code).toBe('passkey_challenge_used');
  });

  it('when the nonce has expired, then 422 passkey_challenge_expired and nothing changes', async () => {
    const { session, loan } = await verifiedSession(app, tenant);
    const { authenticator } = await register(session);
    const issued = await signChallenge(session);
    clock.advance(5 * 60_000 + 1);
    const before = await snapshot(loan.id);
    const res = await session.post('/v1/checkout/accept', { ...signature(loan.documentReference), passkey: { nonce: issued.nonce, ...RP, response: authenticator.sign({ challenge: issued.challenge }) } });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('passkey_challenge_expired');
    expect(await snapshot(loan.id)).toEqual(before);
  });

  it('when a nonce of another loan (the same borrower at another organisation) is used, then 422 and neither loan changes', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, tenant, { phone });
    const otherLender = await lendingTenant(app);
    const { loan: otherLoan } = await offeredLoan(app, otherLender, { phone });
    const sessions: Session[] = [];
    for (const l of [loan, otherLoan]) {
      const s = sessionClient(app, tokenOf(l.applicationUrl));
      await s.post('/v1/checkout/otp/send');
      clock.advance(31_000);
      expect((await s.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) })).status).toBe(200);
      sessions.push(s);
    }
    const [mine, theirs] = sessions as [Session, Session];
    // The passkey is the user's (the verified phone): both sessions see it.
    const { authenticator, passkey } = await register(mine);
    expect((await theirs.get(`/v1/checkout/passkeys?rpId=${RP.rpId}`)).body.data.passkeys.map((p: { id: string }) => p.id)).toEqual([passkey.id]);

    const issued = await signChallenge(mine);
    const response = authenticator.sign({ challenge: issued.challenge });
    const before = [await snapshot(loan.id), await snapshot(otherLoan.id)];
    const res = await theirs.post('/v1/checkout/accept', { ...signature(otherLoan.documentReference), passkey: { nonce: issued.nonce, ...RP, response } });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('passkey_challenge_invalid');
    // Their own nonce with an assertion over our loan's challenge: the signature is bound to the other offer.
    const theirNonce = await signChallenge(theirs);
    const crossed = await theirs.post('/v1/checkout/accept', { ...signature(otherLoan.documentReference), passkey: { nonce: theirNonce.nonce, ...RP, response: authenticator.sign({ challenge: issued.challenge }) } });
    expect(crossed.status).toBe(422);
    expect(crossed.body.error).toBe('passkey_verification_failed');
    const after = [await snapshot(loan.id), await snapshot(otherLoan.id)];
    expect(after[0]).toEqual(before[0]);
    expect({ ...after[1], challenges: after[1]!.challenges.length, passkeys: undefined, events: undefined }).toEqual({ ...before[1], challenges: before[1]!.challenges.length + 1, passkeys: undefined, events: undefined });
    expect(after[1]!.loan.status).toBe('awaiting_acceptance');
  });

  it('when another borrower\'s passkey signs, then 422 passkey_verification_failed', async () => {
    const alice = await verifiedSession(app, tenant);
    const bob = await verifiedSession(app, tenant);
    const { authenticator: alicesKey } = await register(alice.session);
    await register(bob.session);
    const issued = await signChallenge(bob.session);
    const res = await bob.session.post('/v1/checkout/accept', { ...signature(bob.loan.documentReference), passkey: { nonce: issued.nonce, ...RP, response: alicesKey.sign({ challenge: issued.challenge }) } });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('passkey_verification_failed');
  });
});

describe('without a passkey (webviews)', () => {
  it('when the borrower has no passkey, then the signing challenge answers 409 passkey_not_registered and the typed-name signature still signs, with no passkey on the letter', async () => {
    const { session, loan } = await verifiedSession(app, tenant);
    const refused = await session.post('/v1/checkout/passkeys/sign-challenge', { rpId: RP.rpId });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('passkey_not_registered');
    const res = await session.post('/v1/checkout/accept', signature(loan.documentReference));
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('terms_accepted');
    expect(await app.platform.db.selectFrom('loanConsentPasskeys').select('id').where('loanId', '=', loan.id).execute()).toEqual([]);
    const link = await client(app, tenant.test).get(`/v1/loans/${loan.id}/offer-letter`);
    const { text } = await extractText(new Uint8Array(await (await fetch(link.body.data.url)).arrayBuffer()), { mergePages: true });
    expect(text).toContain('Accepted electronically by Ada Obi');
    expect(text).not.toContain('Passkey');
  });

  it('when the offer is signed already, then there is no signing challenge to give', async () => {
    const { session, loan } = await verifiedSession(app, tenant);
    await register(session);
    expect((await session.post('/v1/checkout/accept', signature(loan.documentReference))).status).toBe(200);
    const res = await session.post('/v1/checkout/passkeys/sign-challenge', { rpId: RP.rpId });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('invalid_loan_state');
  });
});

describe('housekeeping', () => {
  it('purges passkey challenges a day after they expired, and keeps the nonce in the signed evidence', async () => {
    const { session, loan } = await verifiedSession(app, tenant);
    const { authenticator } = await register(session);
    const issued = await signChallenge(session);
    const res = await session.post('/v1/checkout/accept', { ...signature(loan.documentReference), passkey: { nonce: issued.nonce, ...RP, response: authenticator.sign({ challenge: issued.challenge }) } });
    expect(res.status).toBe(200);
    const challenges = () => app.platform.db.selectFrom('passkeyChallenges').select('id').where('loanId', '=', loan.id).execute();
    await purgeCheckoutData(app.platform.db, clock.now());
    expect(await challenges()).toHaveLength(2);
    await purgeCheckoutData(app.platform.db, new Date(clock.now().getTime() + 86_400_000 + 5 * 60_000 + 1));
    expect(await challenges()).toEqual([]);
    const evidence = await app.platform.db.selectFrom('loanConsentPasskeys').select('nonce').where('loanId', '=', loan.id).executeTakeFirstOrThrow();
    expect(evidence.nonce).toBe(issued.nonce);
  });
});
