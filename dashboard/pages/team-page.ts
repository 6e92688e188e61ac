import { css, html, LitElement, nothing } from 'lit';
import type { DashboardRole } from '../../server/shared/dashboard-permissions';
import { api, DashboardApiError } from '../api';
import { allowed, session } from '../session';
import { confirmAction } from '../ui/confirm-dialog';
import { when } from '../ui/format';
import { dashStyles } from '../ui/styles';

interface Member {
  userId: string;
  email: string;
  role: DashboardRole;
  joinedAt: string;
}
interface Invitation {
  id: string;
  email: string;
  role: DashboardRole;
  createdAt: string;
  expiresAt: string;
}

const ROLES: Array<[DashboardRole, string]> = [
  ['owner', 'Owner (full access)'],
  ['admin', 'Admin (all but owners)'],
  ['developer', 'Developer (keys, webhooks)'],
  ['analyst', 'Analyst (read-only)'],
  ['compliance', 'Compliance (reviews, audit log)'],
];
const roleName = (role: DashboardRole) => role[0]!.toUpperCase() + role.slice(1);

const messageOf = (error: unknown) => (error instanceof DashboardApiError ? error.message : 'Something went wrong. Please try again.');

/**
 * Team: members (e-mail, role, joined) with role changes and removal, pending invitations with revoke, and an invite
 * form. Only an owner is offered owner changes; the server refuses the rest (the last owner, other roles) and the
 * refusal is shown in the page's alert.
 */
export class DashTeamPage extends LitElement {
  static override styles = [
    dashStyles,
    css`
      .card h2 { margin-top: 0; }
      form.invite { display: grid; grid-template-columns: 1fr 16rem auto; gap: 0 0.75rem; align-items: end; }
      form.invite button { margin-top: 0.75rem; }
      td select { min-width: 9rem; width: auto; }
      .you { margin-left: 0.3rem; }
      .more { margin-top: 0.75rem; }
      @media (max-width: 760px) {
        form.invite { grid-template-columns: 1fr; }
      }
    `,
  ];
  static override properties = {
    mode: {},
    members: { state: true },
    invitations: { state: true },
    membersCursor: { state: true },
    loading: { state: true },
    refusal: { state: true },
    error: { state: true },
    done: { state: true },
    busy: { state: true },
  };
  mode: 'test' | 'live' = 'test';
  members: Member[] = [];
  invitations: Invitation[] = [];
  membersCursor: string | null = null;
  loading = true;
  refusal = '';
  error = '';
  done = '';
  busy = '';

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(moreMembers = false) {
    this.loading = true;
    try {
      const [members, invitations] = await Promise.all([
        api.page<Member>('/team/members', { limit: 100, cursor: moreMembers ? this.membersCursor : undefined }),
        moreMembers ? Promise.resolve({ data: this.invitations, nextCursor: null }) : api.page<Invitation>('/team/invitations', { limit: 100 }),
      ]);
      this.members = moreMembers ? [...this.members, ...members.data] : members.data;
      this.membersCursor = members.nextCursor;
      this.invitations = invitations.data;
      this.refusal = '';
    } catch (error) {
      if (moreMembers) this.error = messageOf(error);
      else this.refusal = messageOf(error);
    } finally {
      this.loading = false;
    }
  }

  private async act(label: string, work: () => Promise<string>) {
    if (this.busy) return false;
    this.busy = label;
    this.error = '';
    this.done = '';
    try {
      this.done = await work();
      return true;
    } catch (error) {
      this.error = messageOf(error);
      return false;
    } finally {
      this.busy = '';
    }
  }

  private async invite(event: SubmitEvent) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const ok = await this.act('invite', async () => {
      const invitation = await api.post<Invitation>('/team/invitations', { email: data.get('email'), role: data.get('role') });
      await this.load();
      return `Invitation sent to ${invitation.email}. The link works for 7 days.`;
    });
    if (ok) form.reset();
  }

  private async changeRole(member: Member, select: HTMLSelectElement) {
    const role = select.value as DashboardRole;
    const ok = await this.act(`role:${member.userId}`, async () => {
      await api.patch(`/team/members/${encodeURIComponent(member.userId)}`, { role });
      await this.load();
      return `${member.email} is now ${roleName(role).toLowerCase()}.`;
    });
    // Refused (last owner, not an owner): show the role the member still has.
    if (!ok) select.value = member.role;
  }

  private async removeMember(member: Member) {
    const me = member.userId === session()?.user.id;
    const confirmed = await confirmAction({
      title: me ? 'Leave this organisation?' : `Remove ${member.email}?`,
      body: me
        ? 'You lose access to this organisation at once; an owner or admin can invite you again.'
        : `${member.email} loses access to this organisation at once and is signed out of it. Their account and other organisations stay.`,
      confirm: me ? 'Leave' : 'Remove member',
      danger: true,
    });
    if (!confirmed) return;
    await this.act(`remove:${member.userId}`, async () => {
      await api.delete(`/team/members/${encodeURIComponent(member.userId)}`);
      await this.load();
      return `${member.email} was removed.`;
    });
  }

  private async revoke(invitation: Invitation) {
    const confirmed = await confirmAction({
      title: `Revoke the invitation to ${invitation.email}?`,
      body: 'The link in their e-mail stops working. You can invite them again later.',
      confirm: 'Revoke invitation',
      danger: true,
    });
    if (!confirmed) return;
    await this.act(`revoke:${invitation.id}`, async () => {
      await api.delete(`/team/invitations/${encodeURIComponent(invitation.id)}`);
      await this.load();
      return `Invitation to ${invitation.email} revoked.`;
    });
  }

  /** Roles the signed-in member may give (only an owner gives or takes ownership). */
  private assignable(current?: DashboardRole) {
    const owner = session()?.role === 'owner';
    return ROLES.filter(([role]) => owner || role !== 'owner' || current === 'owner');
  }

  private inviteForm() {
    if (!allowed('team.manage')) return nothing;
    return html`<section class="card" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite a colleague</h2>
      <form class="invite" @submit=${(e: SubmitEvent) => this.invite(e)}>
        <div>
          <label for="invite-email">Work e-mail</label>
          <input id="invite-email" name="email" type="email" required autocomplete="off" inputmode="email" maxlength="254" />
        </div>
        <div>
          <label for="invite-role">Role</label>
          <select id="invite-role" name="role">
            ${this.assignable().map(([role, label]) => html`<option value=${role} ?selected=${role === 'developer'}>${label}</option>`)}
          </select>
        </div>
        <button type="submit" ?disabled=${this.busy !== ''}>${this.busy === 'invite' ? 'Sending…' : 'Send invitation'}</button>
      </form>
    </section>`;
  }

  private membersTable() {
    const manage = allowed('team.manage');
    const me = session()?.user.id;
    const iAmOwner = session()?.role === 'owner';
    const owners = this.members.filter((m) => m.role === 'owner').length;
    return html`<h2>Members</h2>
      <div class="table-wrap">
        <table>
          <thead>
            <tr><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Joined</th>${manage ? html`<th scope="col">Actions</th>` : nothing}</tr>
          </thead>
          <tbody>
            ${this.members.map((member) => {
              const editable = manage && (iAmOwner || member.role !== 'owner');
              // The last owner can be neither demoted nor removed (the server answers 409 last_owner anyway).
              const lastOwner = member.role === 'owner' && owners === 1 && !this.membersCursor;
              return html`<tr data-member=${member.email}>
                <td>${member.email}${member.userId === me ? html`<span class="badge you">You</span>` : nothing}</td>
                <td>
                  ${editable
                    ? html`<label class="visually-hidden" for="role-${member.userId}">Role of ${member.email}</label>
                        <select id="role-${member.userId}" ?disabled=${this.busy !== ''} @change=${(e: Event) => this.changeRole(member, e.target as HTMLSelectElement)}>
                          ${this.assignable(member.role).map(([role]) => html`<option value=${role} ?selected=${role === member.role}>${roleName(role)}</option>`)}
                        </select>`
                    : roleName(member.role)}
                </td>
                <td>${when(member.joinedAt)}</td>
                ${manage
                  ? html`<td>${lastOwner
                      ? html`<span class="muted">Last owner</span>`
                      : editable
                      ? html`<button type="button" class="danger" aria-label="${member.userId === me ? 'Leave' : 'Remove'} ${member.email}" ?disabled=${this.busy !== ''} @click=${() => this.removeMember(member)}>
                          ${this.busy === `remove:${member.userId}` ? 'Removing…' : member.userId === me ? 'Leave' : 'Remove'}
                        </button>`
                      : nothing}</td>`
                  : nothing}
              </tr>`;
            })}
          </tbody>
        </table>
      </div>
      ${this.membersCursor ? html`<button type="button" class="secondary more" ?disabled=${this.loading} @click=${() => this.load(true)}>Show more members</button>` : nothing}`;
  }

  private invitationsTable() {
    const manage = allowed('team.manage');
    if (this.invitations.length === 0) {
      return html`<h2>Pending invitations</h2><p class="muted">No pending invitations.${manage ? ' Invite a colleague by e-mail above.' : ''}</p>`;
    }
    return html`<h2>Pending invitations</h2>
      <div class="table-wrap">
        <table>
          <thead>
            <tr><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Sent</th><th scope="col">Expires</th>${manage ? html`<th scope="col">Actions</th>` : nothing}</tr>
          </thead>
          <tbody>
            ${this.invitations.map(
              (invitation) => html`<tr data-invitation=${invitation.email}>
                <td>${invitation.email}</td>
                <td>${roleName(invitation.role)}</td>
                <td>${when(invitation.createdAt)}</td>
                <td>${when(invitation.expiresAt)}</td>
                ${manage
                  ? html`<td><button type="button" class="secondary" aria-label="Revoke the invitation to ${invitation.email}" ?disabled=${this.busy !== ''} @click=${() => this.revoke(invitation)}>
                      ${this.busy === `revoke:${invitation.id}` ? 'Revoking…' : 'Revoke'}
                    </button></td>`
                  : nothing}
              </tr>`,
            )}
          </tbody>
        </table>
      </div>`;
  }

  override render() {
    const heading = html`<h1 tabindex="-1">Team</h1>`;
    if (this.refusal) return html`${heading}<p role="alert" class="error">${this.refusal}</p>`;
    if (this.loading && this.members.length === 0) return html`${heading}<p role="status">Loading the team…</p>`;
    return html`${heading}
      <p class="muted">Who can sign in to this organisation's dashboard, and what each may do. Roles apply to test and live mode alike.</p>
      ${this.error ? html`<p role="alert" class="error">${this.error}</p>` : nothing}
      <p role="status" class=${this.done ? 'notice' : 'visually-hidden'}>${this.done}</p>
      ${this.inviteForm()} ${this.membersTable()} ${this.invitationsTable()}`;
  }
}
customElements.define('dash-team-page', DashTeamPage);
