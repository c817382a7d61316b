/**
 * The OTP messages: one email (text + HTML, with the proxy configuration's app name and logo)
 * and one SMS. The code appears in the body only, never in a subject line, which mail
 * systems log and show in notifications more widely than bodies.
 */
import type { EmailMessage, SmsMessage } from './types.js';

/** Default app name when neither the request nor the proxy configuration names one. */
export const DEFAULT_APP_NAME = 'walletkit';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** Only absolute http(s) URLs become an <img>: anything else (javascript:, data:) is dropped. */
function safeLogoUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

function lifetime(seconds: number): string {
  return seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}` : `${seconds} seconds`;
}

/**
 * The OTP email.
 * @example otpEmail({ to: 'a@example.com', code: '123456', appName: 'Acme', expiresInSeconds: 300 })
 */
export function otpEmail(input: {
  to: string;
  code: string;
  appName?: string | undefined;
  logoUrl?: string | undefined;
  expiresInSeconds: number;
}): EmailMessage {
  const appName = input.appName?.trim() || DEFAULT_APP_NAME;
  const logoUrl = safeLogoUrl(input.logoUrl);
  const valid = lifetime(input.expiresInSeconds);
  const text = [`Your ${appName} verification code is:`, '', input.code, '', `It expires in ${valid}. If you did not ask for it, ignore this email.`].join(
    '\n',
  );
  const name = escapeHtml(appName);
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111">',
    logoUrl ? `<p><img src="${escapeHtml(logoUrl)}" alt="${name}" height="48"></p>` : '',
    `<p>Your ${name} verification code is:</p>`,
    `<p style="font-size:28px;font-weight:600;letter-spacing:4px">${escapeHtml(input.code)}</p>`,
    `<p>It expires in ${valid}. If you did not ask for it, ignore this email.</p>`,
    '</body></html>',
  ].join('');
  return { to: input.to, subject: `Your ${appName} verification code`, text, html, appName, ...(logoUrl ? { logoUrl } : {}) };
}

/**
 * The OTP SMS.
 * @example otpSms({ to: '+15551234567', code: '123456', appName: 'Acme', expiresInSeconds: 300 })
 */
export function otpSms(input: { to: string; code: string; appName?: string | undefined; expiresInSeconds: number }): SmsMessage {
  const appName = input.appName?.trim() || DEFAULT_APP_NAME;
  return { to: input.to, text: `${input.code} is your ${appName} verification code. It expires in ${lifetime(input.expiresInSeconds)}.` };
}
