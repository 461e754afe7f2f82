import { describe, expect, it } from 'vitest';
import { byteSize, listFooter, plainText, plural, shortDate } from '../../shared/core/render';

describe('render helpers', () => {
  it('plural counts with thousands separators and irregular plurals', () => {
    expect(plural(1, 'record')).toBe('1 record');
    expect(plural(1240, 'record')).toBe('1,240 records');
    expect(plural(0, 'reply', 'replies')).toBe('0 replies');
  });

  it('byteSize picks B, KB or MB with one decimal', () => {
    expect(byteSize(512)).toBe('512 B');
    expect(byteSize(12_600)).toBe('12.3 KB');
    expect(byteSize(3_500_000)).toBe('3.3 MB');
  });

  it('plainText drops markup, decodes entities and collapses space', () => {
    expect(plainText('<p>Hello&nbsp;<b>World</b></p><p>a &lt; b &amp;&amp; c</p>')).toBe('Hello World a < b && c');
  });

  it('shortDate drops midnight and seconds of zero', () => {
    expect(shortDate('2025-03-01 00:00:00')).toBe('2025-03-01');
    expect(shortDate('2025-03-01 14:30:00')).toBe('2025-03-01 14:30');
  });
});

describe('listFooter', () => {
  it('says how to get the next page by cursor, with what else to pass', () => {
    expect(listFooter({ shown: 50, total: 1240, noun: 'record', next: { param: 'cursor', value: 'abc' } })).toBe('showing 50 of 1,240 — pass cursor "abc" for the next page');
    expect(listFooter({ shown: 2, total: 9, noun: 'automation', nounAfterTotal: true, next: { param: 'cursor', value: 'x', also: 'with app_id 87' } })).toBe(
      'showing 2 of 9 automations — pass cursor "x" with app_id 87 for the next page',
    );
  });

  it('says how to get the next page by offset, with or without a total', () => {
    expect(listFooter({ shown: 30, total: 95, noun: 'item', next: { param: 'offset', value: 30 } })).toBe('showing 30 of 95 — pass offset 30 for the next page');
    expect(listFooter({ shown: 30, noun: 'item', next: { param: 'offset', value: 60 } })).toBe('showing 30 — pass offset 60 for the next page');
  });

  it('names an empty page, the last of several pages, and a complete list', () => {
    expect(listFooter({ shown: 0, total: 0, noun: 'record' })).toBe('no records');
    expect(listFooter({ shown: 0, total: 180, noun: 'record' })).toBe('no records on this page (total 180)');
    expect(listFooter({ shown: 0, total: 0, noun: 'comment', empty: 'no comments on record #5' })).toBe('no comments on record #5');
    expect(listFooter({ shown: 80, total: 180, noun: 'record' })).toBe('showing 80 of 180 (last page)');
    expect(listFooter({ shown: 12, total: 12, noun: 'record' })).toBe('12 records');
    expect(listFooter({ shown: 1, noun: 'reply', nouns: 'replies' })).toBe('1 reply');
  });
});
