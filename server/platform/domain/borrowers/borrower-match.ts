import { matchNames, nameParts } from '../../../shared/name-match';
import { AppError } from '../errors';
import { normalisePhone } from '../users/phone';

/**
 * How a push's borrower compares with the organisation's borrower on record for the same BVN, answered with the push
 * (`borrowerMatch`) so the partner sees what the platform did with it:
 * - `borrower`: `new` (first time this BVN is seen) or `existing`;
 * - `differs`: what the push says differently from the record (`name`, `phone`);
 * - `codesTo`: where this pre-approval's checkout texts its codes and links: `phone_on_record`, or `pushed_phone`
 *   when the push gave another phone.
 *
 * The rule for contact details: the newest verified phone wins. A different phone in the push is kept with the
 * pre-approval; its loan's checkout texts that phone (never the older one without saying so), and once the borrower
 * verifies a code there it becomes the phone on record. The name on record stays (a BVN is one person): a pushed
 * name that is a spelling or form of it (`match`/`partial`) is reported, a different name is refused with 409
 * `borrower_conflict` — the BVN or the name is wrong, and a code must not go to whoever the push names.
 */
export interface BorrowerMatch {
  borrower: 'new' | 'existing';
  differs: Array<'name' | 'phone'>;
  codesTo: 'phone_on_record' | 'pushed_phone';
}

export interface PushedContact {
  firstName: string;
  lastName: string;
  phone: string;
}

export function compareWithRecord(
  record: { id: string; firstName: string; lastName: string; phone: string },
  pushed: PushedContact,
  isNew: boolean,
): { match: BorrowerMatch; contactPhone: string | null; conflict: AppError | null } {
  if (isNew) return { match: { borrower: 'new', differs: [], codesTo: 'phone_on_record' }, contactPhone: null, conflict: null };
  const differs: BorrowerMatch['differs'] = [];
  const pushedName = `${pushed.firstName} ${pushed.lastName}`;
  const recordName = `${record.firstName} ${record.lastName}`;
  const names = matchNames(pushedName, recordName);
  const sameParts = nameParts(pushedName).sort().join(' ') === nameParts(recordName).sort().join(' ');
  if (!sameParts) differs.push('name');
  const pushedPhone = normalisePhone(pushed.phone) ?? pushed.phone.trim();
  const recordPhone = normalisePhone(record.phone) ?? record.phone.trim();
  const phoneDiffers = pushedPhone !== recordPhone;
  if (phoneDiffers) differs.push('phone');
  const conflict =
    names.status === 'mismatch'
      ? new AppError(
          'borrower_conflict',
          'This BVN belongs to a borrower you pushed before under another name: check the BVN and the name. Nothing was recorded.',
          undefined,
          { differs, borrowerId: record.id },
        )
      : null;
  return { match: { borrower: 'existing', differs, codesTo: phoneDiffers ? 'pushed_phone' : 'phone_on_record' }, contactPhone: phoneDiffers ? pushedPhone : null, conflict };
}
