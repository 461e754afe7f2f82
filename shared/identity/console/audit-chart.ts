import type { AuditRecord } from '../../core/audit';
import { esc } from '../pages/layout';

/**
 * Calls per tool and outcome over time, as server-rendered SVG (no script): one row of bars per
 * tool (the busiest six, the rest as "other"), each bar a time bucket with its successful calls
 * (OK) and its failures stacked. The SVG has a title and description, and a table beside it says
 * the same in numbers (for screen readers and for copying).
 */

const STEPS = [60_000, 5 * 60_000, 15 * 60_000, 3_600_000, 6 * 3_600_000, 86_400_000, 7 * 86_400_000];
const MAX_BUCKETS = 24;
/** At least this many buckets, ending with the latest call's: a lone burst still reads as a moment in time. */
const MIN_BUCKETS = 12;
const MAX_ROWS = 6;

interface Cell {
  ok: number;
  bad: number;
}

export function auditChart(records: readonly AuditRecord[]): string {
  const calls = records.filter((r) => r.kind === 'call');
  if (!calls.length) return '';
  const times = calls.map((r) => Date.parse(r.time));
  const first = Math.min(...times);
  const last = Math.max(...times);
  const step = STEPS.find((s) => (last - first) / s < MAX_BUCKETS) ?? STEPS[STEPS.length - 1]!;
  const end = Math.floor(last / step) * step + step;
  const buckets = Math.max(MIN_BUCKETS, Math.ceil((end - Math.floor(first / step) * step) / step));
  const start = end - buckets * step;
  const byTool = new Map<string, number>();
  for (const r of calls) byTool.set(r.tool, (byTool.get(r.tool) ?? 0) + 1);
  const top = [...byTool.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([t]) => t);
  const shown = top.length > MAX_ROWS ? [...top.slice(0, MAX_ROWS - 1), 'other'] : top;
  const rowOf = (tool: string) => (shown.includes(tool) ? tool : 'other');
  const grid = new Map<string, Cell[]>(shown.map((t) => [t, Array.from({ length: buckets }, () => ({ ok: 0, bad: 0 }))]));
  const outcomes = new Map<string, number>();
  for (const r of calls) {
    const cell = grid.get(rowOf(r.tool))![Math.floor((Date.parse(r.time) - start) / step)]!;
    if (r.outcome === 'OK') cell.ok += 1;
    else cell.bad += 1;
    const k = `${Math.floor((Date.parse(r.time) - start) / step)}\u0000${r.tool}\u0000${r.outcome}`;
    outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
  }
  const peak = Math.max(1, ...[...grid.values()].flatMap((cells) => cells.map((c) => c.ok + c.bad)));

  const W = 640;
  const label = 150;
  const rowH = 44;
  const barArea = rowH - 14;
  const top0 = 8;
  const H = top0 + shown.length * rowH + 28;
  const slot = (W - label - 8) / buckets;
  const barW = Math.min(24, Math.max(2, slot * 0.7));
  const fmt = (t: number) => new Date(t).toISOString().slice(step >= 86_400_000 ? 5 : 11, step >= 86_400_000 ? 10 : 16).replace('T', ' ');
  const span = `${new Date(start).toISOString().slice(0, 16).replace('T', ' ')} to ${new Date(start + buckets * step).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const okTotal = calls.filter((r) => r.outcome === 'OK').length;
  const desc = `${calls.length} calls from ${span}, in buckets of ${step >= 3_600_000 ? `${step / 3_600_000} h` : `${step / 60_000} min`}: ${okTotal} OK, ${calls.length - okTotal} failed. Busiest: ${top.slice(0, 3).map((t) => `${t} (${byTool.get(t)})`).join(', ')}.`;
  const rows = shown.map((tool, i) => {
    const y = top0 + i * rowH;
    const bars = grid.get(tool)!.map((c, b) => {
      if (!c.ok && !c.bad) return '';
      const x = label + b * slot + (slot - barW) / 2;
      const hOk = (c.ok / peak) * barArea;
      const hBad = (c.bad / peak) * barArea;
      const base = y + barArea;
      return `${c.ok ? `<rect class="ok" x="${x.toFixed(1)}" y="${(base - hOk).toFixed(1)}" width="${barW.toFixed(1)}" height="${hOk.toFixed(1)}"/>` : ''}${c.bad ? `<rect class="bad" x="${x.toFixed(1)}" y="${(base - hOk - hBad).toFixed(1)}" width="${barW.toFixed(1)}" height="${hBad.toFixed(1)}"/>` : ''}`;
    }).join('');
    const name = tool.length > 20 ? `${tool.slice(0, 19)}…` : tool;
    return `<text x="0" y="${y + barArea - 4}">${esc(name)}</text><line class="axis" x1="${label}" x2="${W - 8}" y1="${y + barArea + 0.5}" y2="${y + barArea + 0.5}"/>${bars}`;
  }).join('');
  const axis = `<text x="${label}" y="${H - 8}">${esc(fmt(start))}</text><text x="${W - 8}" y="${H - 8}" text-anchor="end">${esc(fmt(start + buckets * step))}</text>`;
  const svg = `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="chart-title chart-desc"><title id="chart-title">Calls per tool and outcome over time</title><desc id="chart-desc">${esc(desc)}</desc>${rows}${axis}</svg>`;
  const legend = '<p class="legend muted"><span class="key ok" aria-hidden="true"></span> OK <span class="key bad" aria-hidden="true"></span> failed (any error code) · bar height: calls in the bucket</p>';
  const tableRows = [...outcomes.entries()].sort().map(([k, n]) => {
    const [b, tool, outcome] = k.split('\u0000');
    return `<tr><td>${esc(fmt(start + Number(b) * step))}</td><td>${esc(tool!)}</td><td>${esc(outcome!)}</td><td>${n}</td></tr>`;
  }).join('');
  const equivalent = `<details><summary>The chart as a table</summary><div class="table"><table><caption class="muted">Calls per bucket, tool and outcome</caption><thead><tr><th scope="col">From (UTC)</th><th scope="col">Tool</th><th scope="col">Outcome</th><th scope="col">Calls</th></tr></thead><tbody>${tableRows}</tbody></table></div></details>`;
  return `<figure class="chart-figure">${svg}<figcaption>${legend}<p class="muted">${esc(desc)}</p></figcaption></figure>${equivalent}`;
}
