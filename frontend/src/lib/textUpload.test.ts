/** @vitest-environment jsdom */
import { describe, expect, it } from 'vitest';

import { notTextKind, readTextUpload } from './textUpload';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);

describe('readTextUpload', () => {
  it('reads a text file as it is', async () => {
    const upload = await readTextUpload(new File(['time_s,link\n0,7\n'], 'trace.csv'));
    expect(upload).toEqual({ name: 'trace.csv', text: 'time_s,link\n0,7\n' });
  });

  it('refuses a picture in one sentence, without its bytes', async () => {
    const upload = await readTextUpload(new File([PNG], 'events.png'));
    expect(upload).toEqual({
      name: 'events.png',
      text: '',
      problem: 'events.png is a PNG image, not a text file: choose the CSV or JSON file.',
    });
  });

  it('names what the field accepts when it takes one format', async () => {
    const upload = await readTextUpload(new File([PNG], 'events.png'), 'JSON');
    expect(upload.problem).toBe('events.png is a PNG image, not a text file: choose the JSON file.');
    const latin1 = await readTextUpload(new File([new Uint8Array([0x63, 0xe9, 0x0a])], 'events.json'), 'JSON');
    expect(latin1.problem).toBe('events.json is not UTF-8 text: save it as UTF-8 (JSON) and choose it again.');
  });

  it('names what else is not text', () => {
    expect(notTextKind(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1]))).toBe('a ZIP archive (or an Excel workbook)');
    expect(notTextKind(new Uint8Array([0x41, 0x00, 0x42]))).toBe('binary data');
    expect(notTextKind(new Uint8Array([0x41, 0xe9, 0x42]))).toBe('not UTF-8 text'); // Latin-1 "AéB"
    expect(notTextKind(new TextEncoder().encode('résumé,1\n'))).toBeNull();
  });
});
