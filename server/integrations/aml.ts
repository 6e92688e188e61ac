import type { Mode } from '../platform/domain/scope';
import type { AmlScreenResult, AmlScreen, AmlScreening } from '../platform/domain/ports';

export type { AmlScreenResult, AmlScreen };

const NOT_SCREENED: AmlScreenResult = {
  status: 'pending',
  detail: 'not screened: no live AML screening provider is configured; a person must review this borrower',
};

/**
 * The sandbox screen (test mode). A last name of `Sanctioned` (any case) is a hit, everyone
 * else is clear. It never screens a live person: a live call answers `pending` (fail safe).
 */
export class SandboxAmlScreen implements AmlScreen {
  async screen(person: { firstName: string; lastName: string; mode: Mode }): Promise<AmlScreenResult> {
    if (person.mode !== 'test') return NOT_SCREENED;
    if (person.lastName.trim().toLowerCase() === 'sanctioned') {
      return { status: 'hit', detail: 'sandbox: name matches the sanctions list entry "SANCTIONED"' };
    }
    return { status: 'clear', detail: 'sandbox: no match' };
  }
}

/**
 * The screen chosen per mode: test mode uses the sandbox, live mode the configured provider, or
 * none, in which case every live screen answers `pending` (never `clear`).
 */
export class AmlScreens implements AmlScreening {
  private readonly sandbox = new SandboxAmlScreen();

  constructor(private readonly live?: { provider: string; adapter: AmlScreen }) {}

  screen(person: { firstName: string; lastName: string; mode: Mode }): Promise<AmlScreenResult> {
    if (person.mode === 'test') return this.sandbox.screen(person);
    return this.live ? this.live.adapter.screen(person) : Promise.resolve(NOT_SCREENED);
  }

  get liveProvider(): string | null {
    return this.live?.provider ?? null;
  }
}
