// Unique visitors for the worker layer: addresses and e-mails no other test (or earlier run against
// the same state) uses, so per-address and per-account limits of one test never reach another.
// Every worker test file imports these from here (or through ./visitor): no local copies.

/** A tag unique to this test file's run: it keeps addresses and texts apart across files and runs. */
export const runTag = crypto.randomUUID().slice(0, 4);
let ipSeq = 0;
let emailSeq = 0;

/**
 * An IPv6 address (documentation range) nobody else in this run uses, so rate-limit counters never
 * collide: each in its own /64 (the play counter counts a /64 as one network).
 */
export const uniqueIp = (): string => `2001:db8:${runTag}:${(++ipSeq).toString(16)}::ac`;

/** An e-mail address nobody else uses, in this run or any earlier one on the same state. */
export const uniqueEmail = (tag: string): string => `${tag}-${runTag}${(++emailSeq).toString(36)}-${crypto.randomUUID().slice(0, 6)}@example.com`;
