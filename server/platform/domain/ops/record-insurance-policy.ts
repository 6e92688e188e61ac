import { createHash } from 'node:crypto';
import { AppError } from '../errors';
import { newId } from '../ids';
import type { Services } from '../services';
import { requestLiveMoneyAction, type FourEyesServices, type LiveMoneyOutcome, type StaffActor } from './four-eyes';
import { notPending, POLICY_DOCUMENT_MAX_BYTES, policySubject } from './insurance-policies';
import { requireStaffPermission } from './staff-permissions';

/** The insurer's policy number as staff type it: letters, digits and the separators insurers print. */
export const POLICY_NUMBER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 ./_-]{2,63}$/;

/** 413 `policy_document_size` / 422 `policy_document_not_pdf` unless `document` is a PDF within the limit. */
export function checkPolicyDocument(document: Buffer): void {
  if (document.length === 0 || document.length > POLICY_DOCUMENT_MAX_BYTES) {
    throw new AppError(
      'policy_document_size',
      document.length === 0 ? 'The policy document is empty.' : `The policy document is ${document.length} bytes; the limit is ${POLICY_DOCUMENT_MAX_BYTES}.`,
      undefined,
      { maxBytes: POLICY_DOCUMENT_MAX_BYTES, field: 'documentBase64' },
    );
  }
  if (document.subarray(0, 5).toString('latin1') !== '%PDF-') throw new AppError('policy_document_not_pdf', 'The policy document must be a PDF (it does not start with %PDF-).', undefined, { field: 'documentBase64' });
}

/**
 * A staff member records the policy the insurer issued for a pending policy: the document is checked and stored
 * (under a new key, so a refused or failed attempt never touches another's file), then the action is asked for under
 * four eyes: at once in test mode, a proposal in live mode. If asking fails (a proposal already open, the policy
 * recorded meanwhile) the stored document is removed again, so a refusal leaves nothing behind.
 */
export async function recordInsurancePolicy(
  services: FourEyesServices & Pick<Services, 'files'>,
  actor: StaffActor,
  input: { policyId: string; policyNumber: string; document: Buffer },
): Promise<LiveMoneyOutcome> {
  requireStaffPermission(actor, 'money');
  const policyNumber = input.policyNumber.trim();
  if (!POLICY_NUMBER_PATTERN.test(policyNumber)) {
    throw new AppError('invalid_request', 'policyNumber: 3 to 64 letters, digits, spaces and . / _ -, as the insurer printed it.', undefined, { field: 'policyNumber' });
  }
  checkPolicyDocument(input.document);
  const subject = await policySubject(services.db, input.policyId);
  if (!subject.stillOpen) {
    const row = await services.db.selectFrom('loanInsurancePolicies').select('status').where('id', '=', input.policyId).executeTakeFirstOrThrow();
    throw notPending(row.status);
  }
  const documentKey = `insurance-policies/${input.policyId}/${newId()}.pdf`;
  await services.files.put(documentKey, input.document, 'application/pdf');
  try {
    return await requestLiveMoneyAction(services, actor, {
      kind: 'insurance_policy_record',
      policyId: input.policyId,
      policyNumber,
      documentKey,
      documentBytes: input.document.length,
      documentSha256: createHash('sha256').update(input.document).digest('hex'),
    });
  } catch (error) {
    await services.files.delete([documentKey]).catch(() => undefined);
    throw error;
  }
}
