import { css, html, LitElement } from 'lit';
import { dashStyles } from './styles';

/**
 * Asks before an action that changes money or access (disburse, revoke a key, delete an endpoint…): a modal
 * `<dialog>` (focus trapped, Escape cancels) naming what will happen. Resolves true only on the confirm button.
 *
 * `if (await confirmAction({ title: 'Revoke this key?', body: '…', confirm: 'Revoke key', danger: true })) …`
 */
export class DashConfirmDialog extends LitElement {
  static override styles = [
    dashStyles,
    css`
      dialog { border: none; border-radius: 12px; padding: 1.25rem; max-width: min(28rem, calc(100vw - 2rem)); box-shadow: 0 12px 40px rgb(0 0 0 / 0.25); }
      dialog::backdrop { background: rgb(16 24 40 / 0.5); }
      h2 { margin-top: 0; }
      .actions { display: flex; flex-wrap: wrap; gap: 0.5rem; justify-content: flex-end; margin-top: 1rem; }
    `,
  ];
  static override properties = { heading: { attribute: false }, body: { attribute: false }, confirmLabel: { attribute: false }, danger: { attribute: false } };
  heading = '';
  body = '';
  confirmLabel = 'Confirm';
  danger = false;
  private resolve: ((value: boolean) => void) | undefined;

  open(): Promise<boolean> {
    return new Promise((resolve) => {
      this.resolve = resolve;
      void this.updateComplete.then(() => this.renderRoot.querySelector('dialog')!.showModal());
    });
  }

  private close(value: boolean) {
    this.renderRoot.querySelector('dialog')?.close();
    this.resolve?.(value);
    this.resolve = undefined;
    this.remove();
  }

  override render() {
    return html`<dialog aria-labelledby="confirm-title" @cancel=${(e: Event) => (e.preventDefault(), this.close(false))}>
      <h2 id="confirm-title">${this.heading}</h2>
      <p>${this.body}</p>
      <div class="actions">
        <button class="secondary" @click=${() => this.close(false)}>Cancel</button>
        <button class=${this.danger ? 'danger' : ''} @click=${() => this.close(true)}>${this.confirmLabel}</button>
      </div>
    </dialog>`;
  }
}
customElements.define('dash-confirm-dialog', DashConfirmDialog);

export function confirmAction(options: { title: string; body: string; confirm: string; danger?: boolean }): Promise<boolean> {
  const dialog = document.createElement('dash-confirm-dialog') as DashConfirmDialog;
  Object.assign(dialog, { heading: options.title, body: options.body, confirmLabel: options.confirm, danger: options.danger ?? false });
  document.body.append(dialog);
  return dialog.open();
}
