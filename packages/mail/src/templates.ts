import type { MailLinks, MailMessage } from './message';
import { PRODUCT_NAME, consoleUrl, escapeHtml, renderHtml, renderText, singleLine, subjectValue } from './render';

/** Asks a new user to confirm their address; the link carries the verification token. */
export function verificationMail(links: MailLinks, input: { to: string; token: string }): MailMessage {
  const link = consoleUrl(links.publicUrl, '/console/verify-email', input.token);
  const action = { label: 'Verify email address', url: link };
  const intro = `Welcome to ${PRODUCT_NAME}. Please confirm that this is your email address to finish creating your account.`;
  const notes = ['This link is valid for 24 hours.', 'If you did not create an account, you can ignore this email.'];
  return {
    kind: 'verify-email',
    to: input.to,
    subject: `Verify your email address for ${PRODUCT_NAME}`,
    text: renderText({ paragraphs: [intro], action, notes }),
    html: renderHtml({ title: 'Verify your email address', paragraphs: [escapeHtml(intro)], action, notes: notes.map(escapeHtml) }),
    link,
  };
}

/**
 * Sent instead of a verification mail when the address already has an account, so sign-up does
 * not reveal which addresses are registered while the owner still learns how to get in.
 */
export function signupEmailTakenMail(links: MailLinks, input: { to: string }): MailMessage {
  const signIn = consoleUrl(links.publicUrl, '/console/sign-in');
  const reset = consoleUrl(links.publicUrl, '/console/reset-password');
  const action = { label: 'Sign in', url: signIn };
  const intro = `Someone, maybe you, tried to create a ${PRODUCT_NAME} account with this email address. This address already has an account, so no new account was created.`;
  const forgot = 'Forgot your password? You can reset it here:';
  const notes = ['If this was not you, you can ignore this email: nothing was changed.'];
  return {
    kind: 'signup-email-taken',
    to: input.to,
    subject: `You already have a ${PRODUCT_NAME} account`,
    text: renderText({ paragraphs: [intro], action, notes: [`${forgot}\n${reset}`, ...notes] }),
    html: renderHtml({
      title: 'You already have an account',
      paragraphs: [escapeHtml(intro)],
      action,
      notes: [
        `${escapeHtml(forgot)} <a href="${escapeHtml(reset)}" style="color:#1f5fbf">${escapeHtml(reset)}</a>`,
        ...notes.map(escapeHtml),
      ],
    }),
    link: signIn,
  };
}

/**
 * Sent when someone signs up again with an address whose account is not verified yet. Nothing
 * was changed: the earlier links still work, and the password is the one chosen first. The link
 * lets whoever reads this mailbox choose a password, which also verifies the address; so the
 * newest mail in the inbox never activates a password someone else chose (docs/accounts.md,
 * "No takeover before verification").
 */
export function signupPendingMail(links: MailLinks, input: { to: string; token: string }): MailMessage {
  const link = consoleUrl(links.publicUrl, '/console/reset-password', input.token);
  const action = { label: 'Choose a password', url: link };
  const intro = `Someone, maybe you, tried to create a ${PRODUCT_NAME} account again with this email address. An account with this address is waiting for its email to be verified, so nothing was changed.`;
  const choose =
    'If you signed up and lost the first email or the password you chose, choose a password with the link below: it also confirms your address, and the other password stops working.';
  const notes = ['This link is valid for 1 hour.', 'If you did not try to create an account, you can ignore this email.'];
  return {
    kind: 'signup-pending',
    to: input.to,
    subject: `Finish creating your ${PRODUCT_NAME} account`,
    text: renderText({ paragraphs: [intro, choose], action, notes }),
    html: renderHtml({
      title: 'Finish creating your account',
      paragraphs: [escapeHtml(intro), escapeHtml(choose)],
      action,
      notes: notes.map(escapeHtml),
    }),
    link,
  };
}

/** An API key made recently in one of the user's organizations, as the password-changed mail lists it. */
export interface RecentKey {
  label: string;
  prefix: string;
  /** The creator's email; null for a key made by an operator. */
  createdBy: string | null;
  projectName: string;
  projectId: string;
  createdAt: Date;
}

/**
 * Confirms a password reset, and lists the API keys made in the user's organizations in the last
 * 30 days: a key someone made while they knew the password outlives the reset, so the owner must
 * be able to see it (and revoke it on the keys page).
 */
export function passwordChangedMail(links: MailLinks, input: { to: string; changedAt: Date; keys: RecentKey[] }): MailMessage {
  const firstProject = input.keys[0]?.projectId;
  const keysPage = (projectId: string) => consoleUrl(links.publicUrl, `/console/projects/${encodeURIComponent(projectId)}/keys`);
  const action = firstProject
    ? { label: 'Review API keys', url: keysPage(firstProject) }
    : { label: 'Open the console', url: consoleUrl(links.publicUrl, '/console/sign-in') };
  const intro = `The password of your ${PRODUCT_NAME} account was reset on ${formatUtc(input.changedAt)}, and every session was signed out.`;
  const describe = (k: RecentKey) =>
    `“${singleLine(k.label)}” (${singleLine(k.prefix)}…) in ${singleLine(k.projectName)}, made by ${k.createdBy === null ? 'an operator' : singleLine(k.createdBy)} on ${formatUtc(k.createdAt)}`;
  const listIntro = input.keys.length
    ? `API keys made in your organizations in the last 30 days (${input.keys.length}); a key keeps working after a password reset, so revoke any you do not recognize:`
    : 'No API key was made in your organizations in the last 30 days.';
  const notes = ['If you did not reset your password, reset it again now and review your keys and members.'];
  return {
    kind: 'password-changed',
    to: input.to,
    subject: `Your ${PRODUCT_NAME} password was reset`,
    text: renderText({
      paragraphs: [intro, [listIntro, ...input.keys.map((k) => `- ${describe(k)}: ${keysPage(k.projectId)}`)].join('\n')],
      action,
      notes,
    }),
    html: renderHtml({
      title: 'Your password was reset',
      paragraphs: [
        escapeHtml(intro),
        escapeHtml(listIntro) +
          (input.keys.length
            ? `<br>${input.keys.map((k) => `&bull; <a href="${escapeHtml(keysPage(k.projectId))}" style="color:#1f5fbf">${escapeHtml(describe(k))}</a>`).join('<br>')}`
            : ''),
      ],
      action,
      notes: notes.map(escapeHtml),
    }),
    link: action.url,
  };
}

/** Carries a password reset token; says plainly to ignore it when it was not asked for. */
export function passwordResetMail(links: MailLinks, input: { to: string; token: string }): MailMessage {
  const link = consoleUrl(links.publicUrl, '/console/reset-password', input.token);
  const action = { label: 'Choose a new password', url: link };
  const intro = `We received a request to reset the password of your ${PRODUCT_NAME} account.`;
  const notes = [
    'This link is valid for 1 hour.',
    'If you did not ask for a password reset, ignore this email: your password stays unchanged.',
  ];
  return {
    kind: 'password-reset',
    to: input.to,
    subject: `Reset your ${PRODUCT_NAME} password`,
    text: renderText({ paragraphs: [intro], action, notes }),
    html: renderHtml({ title: 'Reset your password', paragraphs: [escapeHtml(intro)], action, notes: notes.map(escapeHtml) }),
    link,
  };
}

/** Invites someone into an organization. The organization name and inviter address are user input. */
export function invitationMail(
  links: MailLinks,
  input: { to: string; token: string; organizationName: string; inviterEmail: string | null; role: string; expiresAt: Date },
): MailMessage {
  const link = consoleUrl(links.publicUrl, '/console/accept-invitation', input.token);
  const organization = singleLine(input.organizationName);
  const inviter = input.inviterEmail === null ? null : singleLine(input.inviterEmail);
  const role = singleLine(input.role);
  const action = { label: 'Accept invitation', url: link };
  const who = inviter ?? 'Someone';
  const intro = `${who} invited you to join the organization “${organization}” on ${PRODUCT_NAME} as ${role}.`;
  const introHtml = `${escapeHtml(who)} invited you to join the organization <strong>${escapeHtml(organization)}</strong> on ${escapeHtml(PRODUCT_NAME)} as <strong>${escapeHtml(role)}</strong>.`;
  const notes = [
    `This invitation expires on ${formatUtc(input.expiresAt)}.`,
    'If you do not know the sender or did not expect this invitation, you can ignore this email.',
  ];
  return {
    kind: 'invitation',
    to: input.to,
    subject:
      inviter === null
        ? `You are invited to ${subjectValue(organization)} on ${PRODUCT_NAME}`
        : `${subjectValue(inviter)} invited you to ${subjectValue(organization)} on ${PRODUCT_NAME}`,
    text: renderText({ paragraphs: [intro], action, notes }),
    html: renderHtml({ title: `Join ${organization}`, paragraphs: [introHtml], action, notes: notes.map(escapeHtml) }),
    link,
  };
}

/** e.g. "2026-12-03 12:37 UTC": unambiguous whatever the reader's locale. */
function formatUtc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
