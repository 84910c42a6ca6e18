/**
 * What the verifier reads: a request as it arrived. The parsers that make one from raw HTTP, curl,
 * HAR or a log line live in src/capture.
 */
/** A request as captured: what arrived, not what should have been sent. */
export interface CapturedRequest {
  method: string;
  /** Absolute URL (scheme from the caller's guess when the capture has none). */
  url: string;
  /** Header names lowercased; a repeated header keeps its first value. */
  headers: Record<string, string>;
  body: string;
}
