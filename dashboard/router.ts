/**
 * Paths under `/dashboard/` are pages of one app (the server answers the same shell for all of them): links are
 * intercepted and pushed onto history, Back and Forward re-render. `navigate('/keys')`.
 */
export const ROOT = '/dashboard';

export interface Location {
  /** The path below `/dashboard`, always starting with `/` (`/`, `/keys`, `/loans/123`). */
  path: string;
  query: URLSearchParams;
}

export function currentLocation(): Location {
  const path = location.pathname.startsWith(ROOT) ? location.pathname.slice(ROOT.length) || '/' : '/';
  return { path: path.length > 1 ? path.replace(/\/$/, '') : path, query: new URLSearchParams(location.search) };
}

export const href = (path: string): string => `${ROOT}${path === '/' ? '' : path}`;

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  const url = href(path);
  if (options.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  window.dispatchEvent(new Event('dashboard-navigate'));
}

/** Clicks on same-origin `/dashboard/…` links (also inside shadow roots) navigate in place. */
export function interceptLinks(root: EventTarget): void {
  root.addEventListener('click', (event) => {
    const e = event as MouseEvent;
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const anchor = e.composedPath().find((node): node is HTMLAnchorElement => node instanceof HTMLAnchorElement);
    if (!anchor || anchor.target || anchor.hasAttribute('download') || anchor.origin !== location.origin) return;
    if (!anchor.pathname.startsWith(ROOT) || anchor.pathname.startsWith(`${ROOT}/api/`)) return;
    e.preventDefault();
    history.pushState(null, '', anchor.pathname + anchor.search);
    window.dispatchEvent(new Event('dashboard-navigate'));
  });
}
