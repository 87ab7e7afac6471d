import { inlineSafe } from './downloads';

describe('inlineSafe', () => {
  it('renders images, video, audio, PDF and plain text from the storage address', () => {
    for (const type of [
      'image/png',
      'image/JPEG',
      'video/mp4',
      'audio/mpeg',
      'application/pdf',
      'text/plain; charset=utf-8',
    ])
      expect(inlineSafe(type)).toBe(true);
  });

  it('downloads active content and anything unknown', () => {
    for (const type of [
      'text/html',
      'image/svg+xml',
      'application/xhtml+xml',
      'text/javascript',
      'application/octet-stream',
      'image/png2',
      '',
      null,
      undefined,
    ]) {
      expect(inlineSafe(type)).toBe(false);
    }
  });
});
