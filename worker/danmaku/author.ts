/**
 * The author of a comment as the public sees it (docs/decisions/0062-danmaku-authors.md): not the
 * account id, which would link one person's comments across every title, but HMAC-SHA256 of the
 * account id under a random key of the room, kept in the room's own storage. The same account
 * has the same value in one room (a reader can tell two comments are by one person) and
 * unrelated values in two rooms; nobody without the room's storage can compute or reverse it.
 * The account id stays in the room's `comments` rows, for moderation. Synchronous (node:crypto)
 * so a room's reads and broadcasts stay single synchronous steps.
 */
import { createHmac, randomBytes } from "node:crypto";
import { SAMPLE_AUTHOR } from "../../shared/danmaku/samples";

/** Characters of the public value (base64url: 96 bits). */
export const PUBLIC_AUTHOR_LENGTH = 16;

/** A new room key: 32 random bytes, base64url. */
export const newAuthorKey = (): string => randomBytes(32).toString("base64url");

/** The public author of `account` in the room whose key is `roomKey`; the sample comments keep their marker. */
export function publicAuthor(roomKey: string, account: string): string {
  if (account === SAMPLE_AUTHOR) return SAMPLE_AUTHOR;
  return createHmac("sha256", roomKey).update(account).digest("base64url").slice(0, PUBLIC_AUTHOR_LENGTH);
}
