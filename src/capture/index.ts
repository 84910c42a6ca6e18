/**
 * Captures: a request as it arrived (raw HTTP, curl, HAR, a log line), parsed into the core's
 * `CapturedRequest`, and which catalog operation and scheme it is. Above the catalog, below the model.
 */
export * from './shell-words.ts';
export * from './parse-raw-http.ts';
export * from './parse-curl.ts';
export * from './parse-har.ts';
export * from './parse-log-line.ts';
export * from './parse-capture.ts';
export * from './identify-capture.ts';
