/**
 * Test and local controls of the Tape twin, outside Tape's API (mounted at /_twin, any sandbox key):
 * the twin clock, which fires the scheduled automations that became due when moved, and the
 * outbox of emails send_email actions "sent" (never delivered).
 *
 *   GET  /_twin/clock                      → {now, now_ms}
 *   POST /_twin/clock {"advance_ms": n}     moves the clock forward n ms
 *   POST /_twin/clock {"set": ms | "YYYY-MM-DD HH:MM:SS" | ISO}  puts it there
 *   GET  /_twin/outbox                     → {total, emails: […oldest first]}
 */
import { Hono } from 'hono';
import type { Clock } from '../../kit';
import { jsonBody, tapeDateTime, validation, type TwinEnv } from '../http';
import type { TapeAutomations } from './outbox';

export function twinControls(clock: Clock, automations: TapeAutomations) {
  const r = new Hono<TwinEnv>();
  const now = () => ({ now: tapeDateTime(new Date(clock.now())), now_ms: clock.now() });
  r.get('/clock', (c) => c.json(now()));
  r.post('/clock', async (c) => {
    const body = await jsonBody(c);
    const keys = Object.keys(body);
    if (keys.length !== 1 || !['advance_ms', 'set'].includes(keys[0]!)) throw validation('Send exactly one of {"advance_ms": <ms ≥ 0>} or {"set": <epoch ms or datetime>}.');
    if ('advance_ms' in body) {
      const ms = body.advance_ms;
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) throw validation('"advance_ms" must be a number of milliseconds ≥ 0 (the twin clock only moves back with "set").');
      clock.advance(ms);
    } else {
      const v = body.set;
      const ms = typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(v) ? `${v.replace(' ', 'T')}Z` : v) : NaN;
      if (!Number.isFinite(ms)) throw validation('"set" must be epoch milliseconds or a datetime ("2026-01-31 09:00:00", UTC, or ISO 8601).');
      clock.set(ms);
    }
    return c.json(now());
  });
  r.get('/outbox', (c) => c.json({ total: automations.outbox.length, emails: automations.outbox }));
  return r;
}
