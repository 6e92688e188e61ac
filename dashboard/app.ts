import { css, html, LitElement, nothing } from 'lit';
import { api, type Mode } from './api';
import { currentLocation, href, interceptLinks, navigate } from './router';
import { matchPage, PAGES, type PageEntry } from './pages';
import { allowed, forgetSession, loadSession, session } from './session';
import { dashStyles } from './ui/styles';
import './account/account-pages';
import './ui/org-switcher';

/** Pages anyone reaches signed out (the e-mailed links land on them too). */
const ACCOUNT_PATHS: Record<string, string> = {
  '/sign-in': 'sign-in',
  '/sign-up': 'sign-up',
  '/verify-email': 'verify-email',
  '/forgot-password': 'forgot-password',
  '/reset-password': 'reset-password',
  '/accept-invitation': 'accept-invitation',
};

const GROUPS = ['Lending', 'Clinics', 'Developers', 'Organisation'] as const;

/**
 * The dashboard's shell: loads the session, shows the account pages when signed out, otherwise the navigation, the
 * test/live switch (live only once an operator enabled it) and the page of the path — its chunk loaded on first
 * visit, re-created when the mode changes so it reads the other world. A session that ends (idle 30 min, signed out
 * elsewhere) brings back the sign-in page, which returns here afterwards.
 */
export class DashApp extends LitElement {
  static override styles = [
    dashStyles,
    css`
      :host { min-height: 100vh; display: flex; flex-direction: column; background: var(--dash-surface); }
      .skip { position: absolute; left: -999px; top: 0; background: #fff; padding: 0.5rem; z-index: 10; }
      .skip:focus { left: 0.5rem; }
      header { background: #fff; border-bottom: 1px solid var(--dash-border); }
      .bar { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; justify-content: space-between; padding: 0.6rem 1rem; }
      .brand { font-weight: 700; }
      .identity { flex-wrap: nowrap; min-width: 0; }
      .org { overflow-wrap: anywhere; }
      .org { color: var(--dash-muted); font-size: 0.9rem; }
      .test-banner { background: #fef0c7; color: var(--dash-warn); text-align: center; font-size: 0.85rem; font-weight: 600; padding: 0.2rem; }
      .layout { flex: 1; display: grid; grid-template-columns: 13rem 1fr; }
      nav { background: #fff; border-right: 1px solid var(--dash-border); padding: 0.75rem; }
      nav h2 { font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.05em; color: var(--dash-muted); margin: 1rem 0 0.25rem; }
      nav ul { list-style: none; margin: 0; padding: 0; }
      nav a { display: block; padding: 0.4rem 0.6rem; border-radius: 6px; color: inherit; text-decoration: none; }
      nav a[aria-current='page'] { background: #eef0ff; color: var(--dash-primary-dark); font-weight: 600; }
      main { padding: 1.25rem; min-width: 0; max-width: 72rem; }
      .menu-toggle { display: none; }
      .mode { display: flex; align-items: center; gap: 0.4rem; }
      .mode label { margin: 0; font-weight: 600; font-size: 0.9rem; }
      .mode select { width: auto; max-width: 9rem; min-height: 36px; }
      .actions { margin-left: auto; }
      @media (max-width: 760px) {
        .layout { grid-template-columns: 1fr; }
        nav { display: none; border-right: none; border-bottom: 1px solid var(--dash-border); }
        nav.open { display: block; }
        .menu-toggle { display: inline-flex; }
        main { padding: 1rem 0.75rem; }
      }
    `,
  ];
  static override properties = { state: { state: true }, navOpen: { state: true }, pageError: { state: true }, pageErrorTitle: { state: true } };
  state: 'loading' | 'signed-out' | 'signed-in' = 'loading';
  navOpen = false;
  pageError = '';
  pageErrorTitle = 'Not available';
  private pageElement: HTMLElement | undefined;
  private pageKey = '';
  private readonly onNavigate = () => void this.route();
  private readonly onSignedOut = () => {
    forgetSession();
    this.state = 'signed-out';
    const { path } = currentLocation();
    if (!ACCOUNT_PATHS[path]) navigate(`/sign-in?next=${encodeURIComponent(path)}`, { replace: true });
  };

  override connectedCallback(): void {
    super.connectedCallback();
    interceptLinks(this.renderRoot);
    window.addEventListener('popstate', this.onNavigate);
    window.addEventListener('dashboard-navigate', this.onNavigate);
    api.addEventListener('signed-out', this.onSignedOut);
    api.addEventListener('mode-change', this.onNavigate);
    void this.start();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('popstate', this.onNavigate);
    window.removeEventListener('dashboard-navigate', this.onNavigate);
    api.removeEventListener('signed-out', this.onSignedOut);
    api.removeEventListener('mode-change', this.onNavigate);
  }

  private async start() {
    this.state = (await loadSession()) ? 'signed-in' : 'signed-out';
    await this.route();
  }

  /** Called by the sign-in page once a session exists. */
  async signedIn(next: string) {
    await loadSession();
    this.state = 'signed-in';
    navigate(next.startsWith('/') && !next.startsWith('//') ? next : '/', { replace: true });
  }

  private async route() {
    const { path } = currentLocation();
    this.navOpen = false;
    if (ACCOUNT_PATHS[path]) {
      this.pageKey = '';
      this.requestUpdate();
      return;
    }
    if (this.state !== 'signed-in') {
      navigate(`/sign-in${path === '/' ? '' : `?next=${encodeURIComponent(path)}`}`, { replace: true });
      return;
    }
    const match = matchPage(path);
    const key = `${path}|${api.mode}`;
    if (key === this.pageKey) return;
    this.pageKey = key;
    this.pageError = '';
    this.pageErrorTitle = 'Not available';
    if (!match) {
      this.pageElement = undefined;
      this.pageError = 'There is no page at this address.';
      document.title = 'Not found · Dashboard';
      return;
    }
    document.title = `${match.page.title} · Dashboard`;
    const { permission } = match.page;
    if (permission && !allowed(permission)) {
      // Reached by a typed or old link: the menu does not offer it, and the server would refuse every call of the page.
      this.pageElement = undefined;
      this.pageErrorTitle = 'Not available for your role';
      this.pageError = `The ${match.page.title} page is not available for your role (${session()?.role}). Owners and admins of ${session()?.organisation.name} can open it; ask one of them if you need it.`;
      document.title = `Not available for your role · Dashboard`;
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('main h1')?.focus?.();
      return;
    }
    try {
      await match.page.load();
    } catch {
      this.pageError = 'This page could not be loaded. Check your connection and reload.';
      return;
    }
    if (this.pageKey !== key) return;
    const element = document.createElement(match.page.tag);
    for (const [name, value] of Object.entries(match.params)) element.setAttribute(name, value);
    element.setAttribute('mode', api.mode);
    this.pageElement = element;
    this.requestUpdate();
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('main h1')?.focus?.();
  }

  private async switchMode(mode: Mode) {
    api.setMode(mode);
  }

  private async signOut(everywhere: boolean) {
    try {
      await api.post(everywhere ? '/sign-out-everywhere' : '/sign-out');
    } finally {
      forgetSession();
      this.state = 'signed-out';
      this.pageKey = '';
      navigate('/sign-in', { replace: true });
    }
  }

  private navLink(page: PageEntry) {
    const current = currentLocation().path;
    const active = current === page.path || current.startsWith(`${page.path}/`);
    return html`<li><a href=${href(page.path)} aria-current=${active ? 'page' : 'false'}>${page.title}</a></li>`;
  }

  override render() {
    const { path } = currentLocation();
    const account = ACCOUNT_PATHS[path];
    if (account) return html`<dash-account-page .view=${account} @signed-in=${(e: CustomEvent<{ next: string }>) => this.signedIn(e.detail.next)}></dash-account-page>`;
    if (this.state !== 'signed-in') return html`<p role="status">Loading…</p>`;
    const info = session()!;
    const visible = PAGES.filter((p) => p.nav && (!p.permission || allowed(p.permission)));
    return html`
      <header>
        <button class="skip secondary" @click=${() => this.renderRoot.querySelector<HTMLElement>('main')?.focus()}>Skip to content</button>
        ${api.mode === 'test' ? html`<div class="test-banner" role="note">Test mode: sandbox data, no real money</div>` : nothing}
        <div class="bar">
        <div class="row identity">
          <button class="secondary menu-toggle" aria-expanded=${this.navOpen ? 'true' : 'false'} aria-controls="nav" @click=${() => (this.navOpen = !this.navOpen)}>Menu</button>
          <div>
            <a class="brand" href=${href('/')}>Dashboard</a>
            <div class="org">${info.organisation.name} · ${info.role}</div>
          </div>
        </div>
        <div class="row actions">
          <dash-org-switcher></dash-org-switcher>
          <div class="mode">
            <label for="mode">Mode</label>
            <select id="mode" @change=${(e: Event) => this.switchMode((e.target as HTMLSelectElement).value as Mode)}>
              <option value="test" ?selected=${api.mode === 'test'}>Test</option>
              <option value="live" ?selected=${api.mode === 'live'} ?disabled=${!info.organisation.liveEnabled}>
                ${info.organisation.liveEnabled ? 'Live' : 'Live (not enabled yet)'}
              </option>
            </select>
          </div>
          <button class="secondary" @click=${() => this.signOut(false)}>Sign out</button>
        </div>
        </div>
      </header>
      <div class="layout">
        <nav id="nav" class=${this.navOpen ? 'open' : ''} aria-label="Dashboard">
          <ul>${this.navLink(PAGES[0]!)}</ul>
          ${GROUPS.map((group) => {
            const pages = visible.filter((p) => p.nav === group);
            return pages.length ? html`<h2>${group}</h2><ul>${pages.map((p) => this.navLink(p))}</ul>` : nothing;
          })}
          <h2>Account</h2>
          <ul>
            <li><a href=${href('/account')} aria-current=${path === '/account' ? 'page' : 'false'}>Your account</a></li>
            <li><button class="secondary" @click=${() => this.signOut(true)}>Sign out everywhere</button></li>
          </ul>
        </nav>
        <main id="main" tabindex="-1">
          ${this.pageError ? html`<h1 tabindex="-1">${this.pageErrorTitle}</h1><p role="alert" class="error">${this.pageError}</p><p><a href=${href('/')}>Back to the dashboard home</a></p>` : (this.pageElement ?? html`<p role="status">Loading…</p>`)}
        </main>
      </div>
    `;
  }
}
customElements.define('dash-app', DashApp);
