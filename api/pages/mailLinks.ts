import type { Express, RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * Minimal pages behind the links mails carry, served by the API itself when no front end is configured
 * (APP_URL unset: links then point at PUBLIC_URL; domain/platform/mailTemplates.ts builds them). Each page is
 * static HTML plus one shared script: the script reads the token from the address and calls the public API
 * a front end would call (docs/front-end.md), so the server renders nothing from the request, no tenant id
 * appears, and a GET of the page (a mail scanner's) consumes nothing. Strict CSP: only this origin's script,
 * style and API; no inline code, no framing, no form posting elsewhere, no referrer (the token is in the URL).
 */
export const MAIL_LINK_PATHS = [
  '/confirm-email',
  '/reset-password',
  '/book/:publicSlug/manage',
  '/book/:publicSlug/sign-in',
] as const;

const ASSETS = '/pages/assets';

const securityHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      connectSrc: ["'self'"],
      formAction: ["'none'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
  },
  referrerPolicy: { policy: 'no-referrer' },
  xFrameOptions: { action: 'deny' },
});

const page = (title: string, kind: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<link rel="stylesheet" href="${ASSETS}/pages.css">
<script src="${ASSETS}/pages.js" defer></script>
</head>
<body data-page="${kind}">
<main>
<h1>${title}</h1>
${body}
<p id="status" role="status" aria-live="polite"></p>
</main>
</body>
</html>
`;

const PAGES: Record<(typeof MAIL_LINK_PATHS)[number], string> = {
  '/confirm-email': page(
    'Confirm your e-mail address',
    'confirm-email',
    '<form id="form"><button type="submit">Confirm my address</button></form>',
  ),
  '/reset-password': page(
    'Choose a new password',
    'reset-password',
    '<form id="form"><label>New password (10 to 128 characters, not only digits) <input id="password" type="password" autocomplete="new-password" minlength="10" maxlength="128" required></label><button type="submit">Set the password</button></form>',
  ),
  '/book/:publicSlug/manage': page(
    'Your booking',
    'manage-booking',
    '<dl id="booking" hidden></dl><form id="form" hidden><button type="submit">Cancel this booking</button></form>',
  ),
  '/book/:publicSlug/sign-in': page(
    'Your appointments',
    'visitor-sign-in',
    '<form id="form" hidden><label>E-mail address <input id="email" type="email" autocomplete="email" maxlength="254" required></label><button type="submit">Mail me a sign-in link</button></form><ul id="bookings" hidden></ul>',
  ),
};

/** The pages' one script: reads ?token= and the store's slug from the address, calls the API with JSON. */
const SCRIPT = String.raw`'use strict';
(function () {
  var kind = document.body.getAttribute('data-page');
  var token = new URLSearchParams(location.search).get('token') || '';
  var slugMatch = /^\/book\/([^/]+)\//.exec(location.pathname);
  var slug = slugMatch ? decodeURIComponent(slugMatch[1]) : '';
  var status = document.getElementById('status');
  var form = document.getElementById('form');
  function say(text) { status.textContent = text; }
  function call(method, path, body, headers) {
    var init = { method: method, headers: Object.assign({ Accept: 'application/json' }, headers || {}) };
    if (body !== undefined) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
    return fetch(path, init).then(function (res) {
      return res.text().then(function (text) {
        var data = text ? JSON.parse(text) : null;
        if (!res.ok) throw new Error((data && (data.detail || data.title)) || ('HTTP ' + res.status));
        return data;
      });
    });
  }
  function fail(err) { say(err.message); }
  function when(iso) { return new Date(iso).toLocaleString(); }
  function showBooking(b) {
    var dl = document.getElementById('booking');
    dl.textContent = '';
    [['Reference', b.reference], ['Service', b.serviceName], ['With', b.staffName], ['Starts', when(b.startAt)], ['Ends', when(b.endAt)], ['Status', b.status]].forEach(function (row) {
      var dt = document.createElement('dt'); dt.textContent = row[0];
      var dd = document.createElement('dd'); dd.textContent = row[1];
      dl.appendChild(dt); dl.appendChild(dd);
    });
    dl.hidden = false;
    form.hidden = b.status === 'cancelled';
  }
  function submit(handler) { form.addEventListener('submit', function (event) { event.preventDefault(); handler(); }); }
  var bookingPath = '/api/public/stores/' + encodeURIComponent(slug) + '/bookings/' + encodeURIComponent(token);
  if (kind === 'confirm-email') {
    if (!token) return say('This link has no token: open the link of the mail as it is.');
    submit(function () { call('POST', '/auth/confirm-email', { token: token }).then(function () { form.hidden = true; say('Your address is confirmed. You can close this page.'); }, fail); });
  } else if (kind === 'reset-password') {
    if (!token) return say('This link has no token: open the link of the mail as it is.');
    submit(function () {
      var password = document.getElementById('password').value;
      call('POST', '/auth/reset-password', { token: token, password: password }).then(function () { form.hidden = true; say('Your password is set. Sign in with it.'); }, fail);
    });
  } else if (kind === 'manage-booking') {
    if (!token) return say('This link has no token: open the link of the mail as it is.');
    call('GET', bookingPath).then(showBooking, fail);
    submit(function () { call('DELETE', bookingPath).then(function (b) { showBooking(b); say('The booking is cancelled.'); }, fail); });
  } else if (kind === 'visitor-sign-in') {
    if (!token) {
      form.hidden = false;
      submit(function () {
        var email = document.getElementById('email').value;
        call('POST', '/api/public/auth/request-link', { publicSlug: slug, email: email }).then(function () { say('If this address booked here, a sign-in link is on its way.'); }, fail);
      });
      return;
    }
    say('Signing in ...');
    call('POST', '/api/public/auth/verify', { token: token })
      .then(function (session) { return call('GET', '/api/public/auth/me', undefined, { Authorization: 'Bearer ' + session.sessionToken }); })
      .then(function (me) {
        var list = document.getElementById('bookings');
        me.bookings.forEach(function (b) {
          var li = document.createElement('li');
          li.textContent = when(b.startAt) + ': ' + b.serviceName + ' with ' + b.staffName + ' (' + b.status + ', ' + b.reference + ')';
          list.appendChild(li);
        });
        list.hidden = false;
        say(me.bookings.length ? 'Your appointments at ' + me.store.name + ':' : 'No appointment at ' + me.store.name + ' with this address.');
      }, fail);
  }
})();
`;

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d2733}
main{max-width:32rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px #0002}
label{display:block;margin:1rem 0}input{display:block;width:100%;padding:.5rem;margin-top:.25rem;box-sizing:border-box}
button{padding:.6rem 1.2rem;font:inherit;cursor:pointer}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}
dt{font-weight:600}#status{min-height:1.5em}
`;

const send =
  (type: string, text: string): RequestHandler =>
  (_req, res) =>
    void res.set({ 'Content-Type': type, 'Cache-Control': 'no-store' }).send(text);

/** Mounts the pages (before the API's own headers: these carry their own CSP). Only when APP_URL is unset. */
export function mountMailLinkPages(app: Express, appUrl: string): void {
  if (appUrl) return;
  for (const path of MAIL_LINK_PATHS) app.get(path, securityHeaders, send('text/html; charset=utf-8', PAGES[path]));
  app.get(`${ASSETS}/pages.js`, securityHeaders, send('text/javascript; charset=utf-8', SCRIPT));
  app.get(`${ASSETS}/pages.css`, securityHeaders, send('text/css; charset=utf-8', STYLE));
}
