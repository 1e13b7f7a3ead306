/**
 * Receipts of verified parts (docs/decisions/0052-media-upload-path.md): when a part's bytes had
 * their declared length and MD5, the endpoint answers with an HMAC over what it verified; completing
 * an upload needs every part's receipt, so the object that replaces the key is made only of parts
 * whose size and MD5 the worker checked itself. R2's Workers API has no way to list an upload's
 * parts, and a part's ETag is not its MD5 everywhere (Miniflare's are random), so the worker keeps
 * what it verified here, with the client, instead of in storage.
 *
 * The key is derived from MEDIA_UPLOAD_TOKEN: the receipt guards against a client's mistake (a stale
 * resume state, a part sent from another file), not against the token's holder, who may write any
 * object anyway.
 */
import { bytesToHex } from "../../shared/deploy/checksum";

export interface VerifiedPart {
  partNumber: number;
  /** R2's ETag of the part (what completing the upload names it by). */
  etag: string;
  /** Bytes of the part. */
  size: number;
  /** Hex MD5 of the part's bytes, as computed by the worker. */
  md5: string;
}

const encoder = new TextEncoder();

async function receiptKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(`media-upload part receipt\n${secret}`), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

function receiptMessage(key: string, uploadId: string, part: VerifiedPart): Uint8Array<ArrayBuffer> {
  return encoder.encode([key, uploadId, part.partNumber, part.etag, part.size, part.md5].join("\n"));
}

export interface PartReceipts {
  /** The receipt (hex HMAC-SHA-256) of a part the worker verified. */
  sign(key: string, uploadId: string, part: VerifiedPart): Promise<string>;
  /** Whether `receipt` was given by sign() for exactly this part of this upload (compared in constant time). */
  valid(key: string, uploadId: string, part: VerifiedPart, receipt: string): Promise<boolean>;
}

/** Receipts under the key derived from `secret` (one key import for any number of parts). */
export async function partReceipts(secret: string): Promise<PartReceipts> {
  const hmacKey = await receiptKey(secret);
  return {
    sign: async (key, uploadId, part) => bytesToHex(await crypto.subtle.sign("HMAC", hmacKey, receiptMessage(key, uploadId, part))),
    valid: async (key, uploadId, part, receipt) => {
      if (!/^[0-9a-f]{64}$/.test(receipt)) return false;
      const bytes = new Uint8Array(32);
      for (let i = 0; i < 32; i++) bytes[i] = parseInt(receipt.slice(i * 2, i * 2 + 2), 16);
      return crypto.subtle.verify("HMAC", hmacKey, bytes, receiptMessage(key, uploadId, part));
    },
  };
}
