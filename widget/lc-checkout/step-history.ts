/**
 * Browser history for the hosted checkout's steps, so Android's Back (or the browser's) moves one
 * step back instead of leaving, and Forward comes back.
 *
 * Entries are same-document (`pushState`) and carry `{lcCheckout: sessionId, view}`:
 * - `guard`: the entry the page was opened on. Backing onto it asks before leaving (an in-page
 *   prompt: Back once more leaves, "Stay" returns; `beforeunload` cannot ask on a same-document
 *   Back, and it would also fire on every reload);
 * - a step name (`offer`, `bank`…) or an end state (`complete`…): what was shown there. The shell
 *   resolves it against the server's state — a done step is shown for review (the bank step
 *   editable, the signed offer read-only), the current or a later step shows the current one.
 *
 * A page opened at a later step (a reload, the return from the rail, the link opened again) gets
 * one entry per done step behind the current one, so Back still walks through the steps.
 * The server's state stays the source of truth: an entry never decides what is done.
 *
 * Only the hosted page as the top-level document uses it: embedded on a partner's page, or the
 * hosted page inside a frame (a partner's iframe, the demo's phone), the checkout does not write to
 * the page's joint history (the partner's router may own it, and Back must stay the partner's);
 * there, a done step is reached from in-page buttons ("Use another bank account").
 */
export interface HistoryEntry {
  lcCheckout: string;
  view: string;
}

export const LEAVE_GUARD = 'guard';

export class StepHistory {
  private sessionId: string | undefined;
  private current: string | undefined;
  private readonly onPop = (event: PopStateEvent) => {
    const entry = event.state as HistoryEntry | null;
    if (this.sessionId && entry?.lcCheckout === this.sessionId) this.onView(entry.view);
  };

  /** @param onView shows what an entry names (`guard`: ask before leaving). */
  constructor(private readonly onView: (view: string) => void) {}

  get started(): boolean {
    return this.sessionId !== undefined;
  }

  /**
   * The first state of this page. Returns the entry's view when the page was reloaded on one of
   * its own entries (so a reload on a reviewed step stays there), otherwise undefined.
   * @param behind the done steps before `current`, in order
   */
  start(sessionId: string, behind: string[], current: string): string | undefined {
    this.sessionId = sessionId;
    this.current = current;
    window.addEventListener('popstate', this.onPop);
    const entry = history.state as HistoryEntry | null;
    if (entry?.lcCheckout === sessionId) return entry.view;
    history.replaceState(this.entry(LEAVE_GUARD), '');
    for (const step of behind) history.pushState(this.entry(step), '');
    history.pushState(this.entry(current), '');
    return undefined;
  }

  stop(): void {
    window.removeEventListener('popstate', this.onPop);
  }

  /** The server's state moved on (a step done, here or in another tab): one new entry. Whether it had moved. */
  moved(current: string): boolean {
    if (!this.sessionId || current === this.current) return false;
    this.current = current;
    history.pushState(this.entry(current), '');
    return true;
  }

  /**
   * An entry for a view shown from the page itself: a done step on purpose ("Use another bank
   * account", so Back returns), or the current step again (no view) from a review or the leave prompt.
   */
  push(view = this.current): void {
    if (this.sessionId) history.pushState(this.entry(view!), '');
  }

  private entry(view: string): HistoryEntry {
    return { lcCheckout: this.sessionId!, view };
  }
}
