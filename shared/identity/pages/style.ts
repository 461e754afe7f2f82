import { createHash } from 'node:crypto';

/**
 * The one stylesheet of every page (sign-in, consent, connect, errors, and whatever page joins
 * them): served from the service itself, so the pages' CSP can be `default-src 'self'` with no
 * inline style, no external font and no script. Light and dark by the browser's preference,
 * readable from 320 px, a visible focus ring, contrast of at least 4.5:1 for text (WCAG 2.2 AA).
 */
export const PAGE_CSS = `
:root{color-scheme:light dark;--bg:#f4f5f7;--card:#fff;--text:#1b1e23;--muted:#4a5160;--line:#c9ced8;--accent:#1f5fbf;--accent-text:#fff;--warn-bg:#fff4d6;--warn:#6b4a00;--bad-bg:#fde8e8;--bad:#8a1c1c;--ok-bg:#e3f4e8;--ok:#185c2e;--focus:#f5a623}
@media (prefers-color-scheme:dark){:root{--bg:#14161a;--card:#1e2127;--text:#e8eaee;--muted:#b3b9c5;--line:#3a404b;--accent:#8ab4f8;--accent-text:#0d1a2e;--warn-bg:#3a2e0d;--warn:#ffd88a;--bad-bg:#3d1717;--bad:#ffb3b3;--ok-bg:#12331f;--ok:#9be3b1}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;overflow-wrap:anywhere}
main{max-width:38rem;margin:0 auto;padding:1.5rem 1rem 3rem}
main.wide{max-width:72rem}
.brand{font-size:.875rem;color:var(--muted);margin:0 0 .75rem;letter-spacing:.02em}
.card{background:var(--card);border:1px solid var(--line);border-radius:.75rem;padding:1.25rem;margin:0 0 1rem}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 1rem}
h2{font-size:1.125rem;margin:1.25rem 0 .5rem}
p{margin:.5rem 0}
a{color:var(--accent)}
code{font:.875em/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--bg);border:1px solid var(--line);border-radius:.25rem;padding:0 .25rem}
.muted{color:var(--muted);font-size:.9375rem}
.badge{display:inline-block;font-size:.8125rem;font-weight:600;border-radius:1rem;padding:0 .5rem;background:var(--warn-bg);color:var(--warn);border:1px solid currentColor;vertical-align:middle}
.badge.ok{background:var(--ok-bg);color:var(--ok)}
.notice{border-radius:.5rem;padding:.75rem 1rem;margin:.75rem 0;background:var(--warn-bg);color:var(--warn)}
.notice.bad{background:var(--bad-bg);color:var(--bad)}
.notice.ok{background:var(--ok-bg);color:var(--ok)}
dl.facts{display:grid;grid-template-columns:minmax(6rem,max-content) 1fr;gap:.25rem 1rem;margin:.75rem 0}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0}
@media (max-width:26rem){dl.facts{grid-template-columns:1fr}dl.facts dd{margin-bottom:.5rem}}
form{margin:0}
fieldset{border:1px solid var(--line);border-radius:.5rem;margin:1rem 0;padding:.5rem 1rem .75rem}
legend{font-weight:600;padding:0 .25rem}
label{display:block;margin:.5rem 0}
.choice{display:grid;grid-template-columns:1.5rem 1fr;gap:.25rem .5rem;align-items:start;padding:.5rem 0;border-top:1px solid var(--line)}
.choice:first-of-type{border-top:0}
.choice input{margin:.3rem 0 0;width:1.125rem;height:1.125rem}
.what{display:block;color:var(--muted);font-size:.9375rem}
.tag{font-size:.75rem;font-weight:600;text-transform:uppercase;letter-spacing:.04em;border:1px solid var(--line);border-radius:.25rem;padding:0 .3rem;margin-left:.25rem;color:var(--muted)}
input[type=text],input[type=password],input[type=email],input[type=number],input[type=datetime-local],input:not([type]),select,textarea{display:block;width:100%;max-width:100%;font:inherit;color:var(--text);background:var(--card);border:1px solid var(--muted);border-radius:.375rem;padding:.5rem .625rem;margin-top:.25rem}
button,.button{display:inline-block;font:inherit;font-weight:600;line-height:1.25;text-decoration:none;text-align:center;border-radius:.5rem;padding:.625rem 1rem;margin:.25rem .5rem .25rem 0;border:1px solid var(--accent);background:var(--accent);color:var(--accent-text);cursor:pointer;max-width:100%}
button.secondary,.button.secondary{background:transparent;color:var(--accent)}
button.danger{border-color:var(--bad);background:transparent;color:var(--bad)}
.actions{display:flex;flex-wrap:wrap;gap:.25rem .5rem;align-items:center;margin-top:1rem}
.actions button,.actions .button{margin:0}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
details{margin:1rem 0}
summary{cursor:pointer;font-weight:600;color:var(--accent)}
.switch{display:flex;gap:.75rem;align-items:flex-start;padding:.75rem;border:1px solid var(--line);border-radius:.5rem;margin:1rem 0}
.switch input{width:1.25rem;height:1.25rem;margin:.15rem 0 0;flex:none}
table{border-collapse:collapse;width:100%;font-size:.9375rem}
th,td{text-align:left;padding:.375rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
.table{overflow-x:auto}
nav.tabs{display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:0 0 1rem}
nav.tabs a[aria-current=page]{font-weight:700;color:var(--text);text-decoration:none;border-bottom:3px solid var(--accent)}
h3{font-size:1rem;margin:1.25rem 0 .5rem}
.card.inset{background:var(--bg);margin:.75rem 0}
.card.inset h3{margin-top:0}
pre{font:.875rem/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap;background:var(--card);border:1px solid var(--line);border-radius:.375rem;padding:.5rem;margin:.5rem 0}
form.filters{display:grid;grid-template-columns:repeat(auto-fit,minmax(11rem,1fr));gap:0 1rem;align-items:end;margin:0 0 1rem}
form.filters .actions{margin:.5rem 0}
.chart-figure{margin:1rem 0}
svg.chart{display:block;width:100%;max-width:48rem;height:auto}
svg.chart text{fill:var(--text);font:12px system-ui,sans-serif}
svg.chart .axis{stroke:var(--line)}
svg.chart .ok,.key.ok{fill:var(--ok);background:var(--ok)}
svg.chart .bad,.key.bad{fill:var(--bad);background:var(--bad)}
.key{display:inline-block;width:.75rem;height:.75rem;border-radius:.125rem;vertical-align:middle}
td form{display:inline}
td button,td .badge{overflow-wrap:normal;white-space:nowrap}
@media (min-width:40rem){th,td{overflow-wrap:break-word}}
@media (max-width:40rem){table.stacks thead{display:none}table.stacks,table.stacks tbody,table.stacks tr,table.stacks td{display:block;width:100%}table.stacks tr{border-bottom:1px solid var(--line);padding:.5rem 0}table.stacks td{display:grid;grid-template-columns:6.5rem 1fr;gap:.5rem;border:0;padding:.125rem 0}table.stacks td::before{content:attr(data-label);color:var(--muted);font-size:.875rem}table.stacks caption{display:block;text-align:left}}
footer{color:var(--muted);font-size:.8125rem;margin-top:2rem}
`.replace(/\n/g, '');

/** Where the stylesheet is served; the hash in the query makes a changed sheet a new URL, so it may be cached long. */
export const PAGE_CSS_PATH = '/pages/style.css';
export const PAGE_CSS_URL = `${PAGE_CSS_PATH}?v=${createHash('sha256').update(PAGE_CSS).digest('hex').slice(0, 12)}`;
