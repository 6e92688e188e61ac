/**
 * Server messages in a person's words. The API names fields by their code names (`body.recoveryEnabled: …`,
 * `minAmountKobo: must not exceed maxAmountKobo`); the dashboard never shows those. `DashboardApiError` puts every
 * message through `inFormWords` with no labels (code names spelled out), and a form's `fieldError` does it again
 * from the server's own message with the form's labels (the field's label as the form shows it).
 */
/**
 * A server message in the form's words: every API field name becomes its label in quotes (longest names first, so
 * `maxAmountKobo` is not cut by a shorter name inside it), a switch "is true"/"is false" reads "is on"/"is off", a
 * leading `body.`/`query.` path goes, and any code name left (camelCase, or a path like `events.0`) is spelled out
 * in plain words, so a person never reads a field's code name. Cross-field refinements name the other field too:
 * `required when recoveryEnabled is true` → `Required when “Default a loan after a set time overdue” is on`.
 */
export function inFormWords(message: string, labels: Record<string, string> = {}): string {
  let text = message.replace(/^(?:body|query)\.(?=[A-Za-z])/, '');
  // A code name (`minAmountKobo`) anywhere; a one-word name (`pool`, `url`) only as the path it is (`body.pool`), not as a word of the sentence.
  for (const name of Object.keys(labels).sort((a, b) => b.length - a.length)) {
    const pattern = /[A-Z]/.test(name) ? new RegExp(`(?:\\b(?:body|query)\\.)?\\b${name}\\b`, 'g') : new RegExp(`\\b(?:body|query)\\.${name}\\b`, 'g');
    text = text.replace(pattern, `“${labels[name]}”`);
  }
  text = text.replace(/(”) is true\b/g, '$1 is on').replace(/(”) is false\b/g, '$1 is off');
  text = text.replace(/\b(?:body|query)\.([A-Za-z][\w]*)(?:\.\d+)*/g, (_, name: string) => spelled(name));
  text = text.replace(/\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/g, spelled);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `recoveryDefaultAfterDaysOverdue` → `recovery default after days overdue`; `amountKobo` → `amount` (naira on every form). */
const spelled = (name: string) =>
  name
    .replace(/Kobo$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();

