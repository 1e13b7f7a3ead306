/** What the pages know of a signed-in visitor (never a token). */
export interface SessionUser {
  id: string;
  email: string;
  /** RFC 3339 creation time of the account. */
  createdAt: string;
}
