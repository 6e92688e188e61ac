import { z } from 'zod';

/**
 * Field schemas every part of the public contract shares: the HTTP request and response schemas and the event
 * catalogue (`events/catalogue.ts`). Response schemas document; request schemas also validate.
 */
export const Uuid = z.uuid().meta({ example: '3f0a7c1e-5d8b-4c2a-9e61-0b7d4f2a9c13' });
export const Timestamp = z.string().meta({ format: 'date-time', example: '2026-11-26T09:30:00.000Z' });
export const KoboAmount = z.number().int().meta({ format: 'int64', description: 'Integer kobo (NGN minor unit).' });
