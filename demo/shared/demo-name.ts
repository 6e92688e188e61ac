/** The demo's one name: the browser tab (`demo/server/page.ts`) and the page's header (`demo-app`) both say it. */
export const DEMO_NAME = 'Lending platform · live demo';
