import { invitationMail, passwordResetMail, signupEmailTakenMail, verificationMail } from './index';

const links = { publicUrl: 'http://localhost:8080/' };

describe('account mail templates', () => {
  it('puts the url-encoded token in the verification link, under a public url given with a trailing slash', () => {
    const mail = verificationMail(links, { to: 'ada@example.com', token: 'a+b/c=d&e' });
    expect(mail.link).toBe('http://localhost:8080/console/verify-email?token=a%2Bb%2Fc%3Dd%26e');
    expect(mail.kind).toBe('verify-email');
    expect(mail.text).toContain(mail.link);
    expect(mail.text).toContain('24 hours');
    // the href is HTML-escaped, the link itself is not
    expect(mail.html).toContain('href="http://localhost:8080/console/verify-email?token=a%2Bb%2Fc%3Dd%26e"');
    expect(mail.subject).toContain('Crawl Data Service');
  });

  it('points the email-taken mail at sign-in and password reset, with no token', () => {
    const mail = signupEmailTakenMail({ publicUrl: 'https://data.example.com' }, { to: 'ada@example.com' });
    expect(mail.link).toBe('https://data.example.com/console/sign-in');
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('https://data.example.com/console/sign-in');
      expect(part).toContain('https://data.example.com/console/reset-password');
      expect(part).not.toContain('token=');
    }
  });

  it('says a password reset link lasts an hour and can be ignored', () => {
    const mail = passwordResetMail(links, { to: 'ada@example.com', token: 'tok' });
    expect(mail.link).toBe('http://localhost:8080/console/reset-password?token=tok');
    expect(mail.text).toContain('1 hour');
    expect(mail.text).toMatch(/did not ask.*ignore/);
  });

  it('HTML-escapes a hostile organization name and inviter, and keeps them to one line in the subject and text', () => {
    const mail = invitationMail(links, {
      to: 'bob@example.com',
      token: 'inv',
      organizationName: '<script>alert("x")</script>\r\nBcc: victim@example.com',
      inviterEmail: 'eve"><img src=x onerror=alert(1)>@example.com',
      role: 'admin',
      expiresAt: new Date('2026-12-03T12:37:00Z'),
    });
    expect(mail.link).toBe('http://localhost:8080/console/accept-invitation?token=inv');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Bcc: victim@example.com');
    expect(mail.html).toContain('eve&quot;&gt;&lt;img src=x onerror=alert(1)&gt;@example.com');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.subject).toContain('<script>alert("x")</script> Bcc: victim@example.com');
    expect(mail.text).toContain('“<script>alert("x")</script> Bcc: victim@example.com”');
    expect(mail.text).toContain('2026-12-03 12:37 UTC');
  });

  it('names no inviter when there is none, and shortens a very long organization name in the subject', () => {
    const mail = invitationMail(links, {
      to: 'bob@example.com',
      token: 'inv',
      organizationName: 'A'.repeat(300),
      inviterEmail: null,
      role: 'member',
      expiresAt: new Date('2026-12-03T12:37:00Z'),
    });
    expect(mail.subject).toMatch(/^You are invited to A+… on Crawl Data Service$/);
    expect(mail.subject.length).toBeLessThan(160);
    expect(mail.text).toContain('A'.repeat(300));
  });
});
