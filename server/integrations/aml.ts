import type { Mode } from '../platform/db/schema';

export interface AmlScreenResult {
  status: 'clear' | 'hit';
  detail: string | null;
}

/** Sanctions / PEP screening of a person before money moves to them. */
export interface AmlScreen {
  screen(person: { firstName: string; lastName: string; mode: Mode }): Promise<AmlScreenResult>;
}

/**
 * The sandbox screen. In test mode a last name of `Sanctioned` (any case) is a hit, everyone
 * else is clear. Live mode never honours the magic value: with no live provider configured,
 * it screens everyone clear and says so in the detail.
 */
export class SandboxAmlScreen implements AmlScreen {
  async screen(person: { firstName: string; lastName: string; mode: Mode }): Promise<AmlScreenResult> {
    if (person.mode === 'test' && person.lastName.trim().toLowerCase() === 'sanctioned') {
      return { status: 'hit', detail: 'sandbox: name matches the sanctions list entry "SANCTIONED"' };
    }
    return { status: 'clear', detail: person.mode === 'test' ? 'sandbox: no match' : 'no live screening provider configured' };
  }
}
