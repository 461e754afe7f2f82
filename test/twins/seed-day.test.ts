import { describe, expect, it } from 'vitest';
import { createClock } from '../../infra/twins/kit';
import { createHubSpotTwin } from '../../infra/twins/hubspot';
import { createPodioTwin, PODIO_DEMO } from '../../infra/twins/podio';
import { createShareFileTwin } from '../../infra/twins/sharefile';
import { convertFile } from '../../shared/files/convert';
import { toMarkdown } from '../../shared/files/document';

/**
 * The twins' demo data stays current and real (infra/twins/kit/seed-day.ts, kit/documents.ts): its
 * dates follow the day the twin starts, the same day always gives the same data, and every kind of
 * seeded file converts.
 */

const DAY = 86_400_000;
const month = (ms: number) => new Date(ms).toISOString().slice(0, 7);

describe('demo data that stays current', () => {
  it.each(['2026-12-06', '2031-05-20'])('HubSpot started on %s: deals close this month and next, nothing was made after today, the same data twice', (day) => {
    const start = Date.parse(`${day}T09:30:00Z`);
    const twin = createHubSpotTwin({ clock: createClock(start) });
    const deals = [...twin.state.records.deals.values()];
    const closing = (m: string) => deals.filter((d) => month(Date.parse(d.properties.closedate!)) === m).length;
    expect(closing(month(start))).toBeGreaterThan(5);
    expect(closing(month(start + 31 * DAY))).toBeGreaterThan(5);
    const newest = Math.max(...Object.values(twin.state.records).flatMap((m) => [...m.values()].map((r) => r.createdAt)));
    expect(newest).toBeLessThan(start);
    expect(newest).toBeGreaterThan(start - 7 * DAY);
    const again = createHubSpotTwin({ clock: createClock(start + 3 * 3_600_000) });
    expect([...again.state.records.deals.values()].map((d) => d.properties.closedate)).toEqual(deals.map((d) => d.properties.closedate));
  });

  it('Podio started on any day: the owner has tasks due that week, written dates on the reference day', () => {
    const start = Date.parse('2026-12-07T08:00:00Z');
    const twin = createPodioTwin({ clock: createClock(start) });
    const dueAt = (due: { date: string } | { utc: number } | null) => (due === null ? NaN : 'utc' in due ? due.utc : Date.parse(`${due.date}T00:00:00Z`));
    const due = [...twin.state.tasks.rows.values()].filter((t) => t.status === 'active' && Math.abs(dueAt(t.due) - start) < 7 * DAY);
    expect(due.length).toBeGreaterThan(2);
    const onReferenceDay = createPodioTwin({ clock: createClock(PODIO_DEMO.today + 10 * 3_600_000) });
    expect([...onReferenceDay.state.tasks.rows.values()].map((t) => t.due)).toContainEqual({ date: '2026-01-17' });
  });
});

describe('demo files that are real documents', () => {
  const kinds = (files: { name: string; content: Uint8Array }[]) => [...new Map(files.map((f) => [f.name.split('.').pop()!, f])).values()];
  const converted = async (f: { name: string; content: Uint8Array }) =>
    toMarkdown(await convertFile(new Uint8Array(f.content), { parameter: 'file_id', label: f.name, name: f.name, mimetype: '', instead: '' }));

  it('Podio: one file of each kind (PDF, DOCX, XLSX, PPTX, a PNG of text) converts to its text', async () => {
    const twin = createPodioTwin();
    const files = [...twin.state.files.values()].map((f) => ({ name: f.name, content: f.content }));
    const proposal = files.find((f) => f.name === 'proposal-121.pdf')!;
    expect(await converted(proposal)).toMatch(/Proposal: .+ Amount: \d+\.00 (EUR|USD)/);
    const picked = kinds(files.filter((f) => f.name !== 'proposal-121.pdf' && !f.name.startsWith('site-photo')));
    expect(picked.map((f) => f.name.split('.').pop()).sort()).toEqual(['docx', 'pdf', 'png', 'pptx', 'xlsx']);
    const text = Object.fromEntries(await Promise.all(picked.map(async (f) => [f.name.split('.').pop(), await converted(f)] as const)));
    expect(text.docx).toContain('Statement of work');
    expect(text.xlsx).toMatch(/\| Consulting \| \d+ \|/);
    expect(text.pptx).toContain('Kickoff');
    expect(text.png).toMatch(new RegExp(picked.find((f) => f.name.endsWith('.png'))!.name.replace(/-logo\.png$/, '').slice(0, 8), 'i'));
  }, 60_000);

  it('ShareFile: its XLSX, PPTX and the floor plan of text convert', async () => {
    const twin = createShareFileTwin();
    const file = (name: string) => [...twin.state.items.values()].find((i) => i.name === name && !i.deleted)!;
    const read = (name: string) => converted({ name, content: file(name).content! });
    expect(await read('fees-2026.xlsx')).toContain('| Estate planning | 220 |');
    expect(await read('pitch-deck.pptx')).toContain('Why us');
    expect(await read('floor-plan.png')).toMatch(/Floor plan/i);
  }, 60_000);
});
