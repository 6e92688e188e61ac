import { z } from 'zod';
import { FINANCING_STATUSES } from '../domain/financing/financing-application';
import { KoboAmount, Timestamp, Uuid } from './schemas';

export const TenorOptionSchema = z
  .object({
    tenorMonths: z.number().int(),
    tenorDays: z.number().int(),
    annualRateBps: z.number().int(),
    instalmentKobo: KoboAmount.meta({ description: 'The largest monthly instalment (the affordability test uses it).' }),
    instalmentCount: z.number().int(),
    totalRepayableKobo: KoboAmount,
    costOfCreditKobo: KoboAmount,
    aprBps: z.number().int(),
  })
  .meta({ id: 'FinancingTenorOption' });

export const FinancingViewSchema = z
  .object({
    sdkReference: Uuid,
    status: z.enum(FINANCING_STATUSES),
    treatment: z.string(),
    amountKobo: KoboAmount,
    expiresAt: Timestamp,
    options: z.array(TenorOptionSchema).nullable(),
    riskBand: z.string().nullable(),
    rejectionReason: z.string().nullable().meta({ description: '`identity_mismatch`, `delinquent`, `amount_above_risk_limit`, `unaffordable`, `outside_policy`, or `declined_on_review` (the service\'s staff declined it after a check that needed a person).' }),
  })
  .meta({ id: 'FinancingApplicationView', description: 'A patient-financing application as the patient sees it (no BVN, no bureau report).' });
