// Defaults of the HTTP layer that the settings read at activation name, without loading http.ts itself.

/**
 * The most of an answer read whole, decompressed (the setting portal.http.maxAnswerBytes): far above any
 * answer of the portal's (a view of 100,000 rows is some 30 MB), and far below what would run the
 * extension host out of memory.
 */
export const DEFAULT_MAX_ANSWER_BYTES = 256 * 1024 * 1024;
