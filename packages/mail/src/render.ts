export const PRODUCT_NAME = 'Crawl Data Service';

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
const MAX_SUBJECT_VALUE_LENGTH = 100;

/**
 * One line of user input (an organization name, an email address): control characters and line
 * breaks become a space, so a value can neither forge a header nor start a paragraph of its own.
 */
export function singleLine(value: string): string {
  return value.replace(CONTROL_CHARACTERS, ' ').replace(/\s+/g, ' ').trim();
}

/** A value for a subject line: one line, and short, so a long name cannot push the product name out of view. */
export function subjectValue(value: string): string {
  const line = singleLine(value);
  return line.length > MAX_SUBJECT_VALUE_LENGTH ? `${line.slice(0, MAX_SUBJECT_VALUE_LENGTH - 1)}…` : line;
}

export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The console URL of `path` with an optional token query, from a public origin given with or without a trailing slash. */
export function consoleUrl(publicUrl: string, path: string, token?: string): string {
  const origin = publicUrl.replace(/\/+$/, '');
  return token === undefined ? `${origin}${path}` : `${origin}${path}?token=${encodeURIComponent(token)}`;
}

/**
 * The HTML part: paragraphs (already escaped), one button-like action link, then the raw URL for
 * clients that do not render the button, and closing notes. Inline styles only: mail clients drop
 * style sheets.
 */
export function renderHtml(parts: {
  title: string;
  paragraphs: string[];
  action: { label: string; url: string };
  notes: string[];
}): string {
  const url = escapeHtml(parts.action.url);
  const paragraph = (html: string) => `<p style="margin:0 0 16px;font-size:16px;line-height:1.5;color:#1f2933">${html}</p>`;
  const note = (html: string) => `<p style="margin:0 0 12px;font-size:14px;line-height:1.5;color:#52606d">${html}</p>`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(parts.title)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f5f7fa;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif">',
    '<div role="article" aria-label="' +
      escapeHtml(parts.title) +
      '" style="max-width:560px;margin:0 auto;padding:32px;background:#ffffff;border-radius:8px">',
    `<h1 style="margin:0 0 24px;font-size:22px;line-height:1.3;color:#1f2933">${escapeHtml(parts.title)}</h1>`,
    ...parts.paragraphs.map(paragraph),
    `<p style="margin:24px 0"><a href="${url}" style="display:inline-block;padding:12px 24px;background:#1f5fbf;color:#ffffff;font-size:16px;font-weight:600;text-decoration:none;border-radius:6px">${escapeHtml(parts.action.label)}</a></p>`,
    note(
      `If the button does not work, copy this address into your browser:<br><a href="${url}" style="color:#1f5fbf;word-break:break-all">${url}</a>`,
    ),
    ...parts.notes.map(note),
    `<p style="margin:24px 0 0;font-size:13px;color:#7b8794">${escapeHtml(PRODUCT_NAME)}</p>`,
    '</div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The plain-text part: the same content, the URL on a line of its own. */
export function renderText(parts: { paragraphs: string[]; action: { label: string; url: string }; notes: string[] }): string {
  return [...parts.paragraphs, `${parts.action.label}:\n${parts.action.url}`, ...parts.notes, `-- \n${PRODUCT_NAME}`].join('\n\n') + '\n';
}
