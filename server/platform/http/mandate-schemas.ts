import { z } from 'zod';
import { MANDATE_PROVIDERS, MANDATE_STATUSES } from '../domain/mandates/mandate';
import { KoboAmount, Timestamp, Uuid } from './schemas';

/** A mandate as the lending API and the checkout both answer it. */
export const MandateSchema = z
  .object({
    id: Uuid,
    organisationId: Uuid,
    borrowerId: Uuid,
    loanId: Uuid,
    provider: z.enum(MANDATE_PROVIDERS).meta({ description: '`rail_a` (default) and `rail_b` are charged by the service; `rail_c` is a partner-operated status marker, never charged.' }),
    status: z.enum(MANDATE_STATUSES),
    reference: z.string(),
    email: z.email(),
    accountNumber: z.string().nullable(),
    bankCode: z.string().nullable(),
    amountKobo: KoboAmount,
    authorizationUrl: z.string().nullable().meta({ description: 'Hosted by the rail provider: send the borrower there (not for `rail_c`).' }),
    activatedAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'LoanMandate', description: 'A direct-debit mandate. Provider authorisation codes are stored encrypted and never serialised.' });
