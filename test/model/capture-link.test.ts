import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { captureLinkHref, readCaptureFragment } from '../../src/model/capture-link.ts';

const CAPTURE =
  'POST /paynet/api/v2/capture/4001 HTTP/1.1\r\nHost: sandbox.example.com\r\n\r\nlogin=teacher-shop&amount=10.00&control=ccec';

describe('a capture carried to the debugger in the fragment', () => {
  it('opens the debugger with the capture, byte for byte', () => {
    const href = captureLinkHref(CAPTURE);
    expect(href).toMatch(/^\/debugger#capture=[A-Za-z0-9_-]+$/);
    expect(readCaptureFragment(new URL(href, 'http://x').hash)).toEqual({ capture: CAPTURE });
  });

  it('round-trips any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        expect(readCaptureFragment(captureLinkHref(text).slice('/debugger'.length))).toEqual({
          capture: text,
        });
      }),
    );
  });

  it('reads nothing from another fragment, and says when the capture is damaged', () => {
    expect(readCaptureFragment('')).toBeNull();
    expect(readCaptureFragment('#share=abc')).toBeNull();
    expect(readCaptureFragment('#capture=not*base64')).toHaveProperty('error');
    // Not UTF-8 (0xff).
    expect(readCaptureFragment('#capture=_w')).toHaveProperty('error');
  });
});
