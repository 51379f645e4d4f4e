import type { MailLinks, MailMessage } from './message';
import { consoleUrl, escapeHtml, renderHtml, renderText, singleLine, subjectValue } from './render';

/** What an alert's mail names: the rule, the product and its location, the value and the value before. */
export interface AlertMailInput {
  to: string;
  projectId: string;
  ruleName: string;
  asin: string;
  marketplace: string;
  /** null: the marketplace's default location */
  postalCode: string | null;
  /** what the condition looked at (a price, an availability, a seller, a rating, a field's value) */
  value: unknown;
  /** the same field before (null when never observed) */
  previous: unknown;
}

/** A value as one short line: strings as they are, anything else as JSON, "unknown" for none. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return 'unknown';
  const line = singleLine(typeof value === 'string' ? value : JSON.stringify(value));
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/**
 * An alert rule fired for a product (docs/alerts.md, "Mail to members"). The link opens the
 * product's tracking timeline in the console at the alert's location. Rule names and values are
 * user or marketplace text: escaped, one line each.
 */
export function alertMail(links: MailLinks, input: AlertMailInput): MailMessage {
  const query = new URLSearchParams({ asin: input.asin, marketplace: input.marketplace });
  if (input.postalCode) query.set('postalCode', input.postalCode);
  const link = `${consoleUrl(links.publicUrl, `/console/projects/${encodeURIComponent(input.projectId)}/tracking`)}?${query.toString()}`;
  const rule = singleLine(input.ruleName);
  const location = input.postalCode ? `${input.marketplace}, postal code ${singleLine(input.postalCode)}` : input.marketplace;
  const paragraphs = [
    `Your alert rule "${rule}" fired for product ${input.asin} (${location}).`,
    `Value: ${shown(input.value)}\nBefore: ${shown(input.previous)}`,
  ];
  const action = { label: 'Open the tracking timeline', url: link };
  const notes = ['You get this mail because the rule notifies you. An owner or admin of the project can change its notify list.'];
  return {
    kind: 'alert',
    to: input.to,
    subject: `Alert: ${subjectValue(rule)} (${input.asin})`,
    text: renderText({ paragraphs, action, notes }),
    html: renderHtml({
      title: `Alert: ${rule}`,
      paragraphs: paragraphs.map((p) => escapeHtml(p).replace(/\n/g, '<br>')),
      action,
      notes: notes.map(escapeHtml),
    }),
    link,
  };
}
