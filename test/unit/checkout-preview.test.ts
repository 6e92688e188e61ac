import { describe, expect, it } from 'vitest';
import { previewBranding, previewCheckoutState } from '../../server/platform/domain/checkout/checkout-preview';

/** The dashboard preview's draft branding goes through the save's checks; its state is a fixture with nothing of a borrower. */
describe('checkout preview', () => {
  it('keeps what a save would keep (normalised) and leaves out, by name, what a save would refuse', () => {
    const { branding, rejected } = previewBranding(
      { brandColor: '#0B6E4F', displayName: '  Kudi Loans ', supportPhone: '0700 123 4567', termsUrl: 'javascript:alert(1)', logoUrl: 'http://localhost:9/logo.svg', privacyUrl: '' },
      'test',
    );
    expect(branding).toEqual({
      displayName: 'Kudi Loans',
      logoUrl: 'http://localhost:9/logo.svg',
      brandColor: '#0b6e4f',
      supportEmail: null,
      supportPhone: '+234 700 123 4567',
      supportUrl: null,
      privacyUrl: null,
      termsUrl: null,
    });
    expect(rejected).toEqual(['termsUrl']);
    // Live mode: plain http is refused even on loopback.
    expect(previewBranding({ logoUrl: 'http://localhost:9/logo.svg' }, 'live')).toMatchObject({ branding: { logoUrl: null }, rejected: ['logoUrl'] });
  });

  it('refuses a field that is not branding, and takes anything that is not an object as an empty draft', () => {
    expect(() => previewBranding({ allowedOrigins: ['https://x.example'] }, 'test')).toThrow(/unknown field allowedOrigins/);
    expect(previewBranding([1, 2], 'test').branding.brandColor).toBeNull();
    expect(previewBranding('text', 'test').rejected).toEqual([]);
  });

  it('the state is the phone step before the code, with the organisation\'s name and the mode, and no borrower, loan or offer', () => {
    const { branding } = previewBranding({ brandColor: '#123456' }, 'test');
    const state = previewCheckoutState({ organisationName: 'Ikeja Clinic', mode: 'live', branding, securedBy: 'LoanCheckout', now: new Date('2026-01-01T00:00:00Z') });
    expect(state).toMatchObject({ status: 'in_progress', nextStep: 'otp', mode: 'live', organisationName: 'Ikeja Clinic', branding: { brandColor: '#123456', securedBy: 'LoanCheckout' } });
    expect([state.borrower, state.loan, state.offer, state.bank, state.mandate, state.financing, state.otpChallenge]).toEqual([null, null, null, null, null, null, null]);
    expect(state.steps.map((s) => s.name)).toEqual(['otp', 'offer', 'bank', 'mandate']);
  });
});
