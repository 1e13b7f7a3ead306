/**
 * UTF-8 encoding of short strings in JavaScript, for React's streaming renderer (worker/react-util.ts).
 *
 * React's server renderer encodes the HTML piece by piece: every tag name, attribute and text of
 * a page is one `TextEncoder.encodeInto()` call, about nine thousand on the home page. In workerd
 * each call crosses from JavaScript into the runtime's C++, which costs more than encoding a few
 * characters in JavaScript does; strings longer than `NATIVE_FROM_LENGTH` still go to the
 * runtime's encoder, which is faster once the string is long (docs/decisions/0056).
 */

/** Strings of at least this many UTF-16 code units are encoded by the runtime's encoder. */
export const NATIVE_FROM_LENGTH = 256;

/** What `TextEncoder.encodeInto` answers: code units read from the string, bytes written. */
export interface EncodeIntoResult {
  read: number;
  written: number;
}

const REPLACEMENT_CHARACTER = 0xfffd;

/**
 * Encodes `source` into `destination` exactly as the WHATWG `TextEncoder.encodeInto` does: as many
 * whole code points as fit, a lone surrogate as U+FFFD, and `read`/`written` counted the same way.
 */
export function encodeUtf8Into(source: string, destination: Uint8Array): EncodeIntoResult {
  const length = source.length;
  const capacity = destination.length;
  let read = 0;
  let written = 0;
  while (read < length) {
    let code = source.charCodeAt(read);
    if (code < 0x80) {
      if (written >= capacity) break;
      destination[written++] = code;
      read++;
      continue;
    }
    if (code < 0x800) {
      if (written + 2 > capacity) break;
      destination[written++] = 0xc0 | (code >> 6);
      destination[written++] = 0x80 | (code & 0x3f);
      read++;
      continue;
    }
    if (code >= 0xd800 && code < 0xdc00 && read + 1 < length) {
      const low = source.charCodeAt(read + 1);
      if (low >= 0xdc00 && low < 0xe000) {
        if (written + 4 > capacity) break;
        const point = ((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
        destination[written++] = 0xf0 | (point >> 18);
        destination[written++] = 0x80 | ((point >> 12) & 0x3f);
        destination[written++] = 0x80 | ((point >> 6) & 0x3f);
        destination[written++] = 0x80 | (point & 0x3f);
        read += 2;
        continue;
      }
    }
    if (code >= 0xd800 && code < 0xe000) code = REPLACEMENT_CHARACTER;
    if (written + 3 > capacity) break;
    destination[written++] = 0xe0 | (code >> 12);
    destination[written++] = 0x80 | ((code >> 6) & 0x3f);
    destination[written++] = 0x80 | (code & 0x3f);
    read++;
  }
  return { read, written };
}

/**
 * A `TextEncoder` whose `encodeInto` encodes short strings in JavaScript and long ones with the
 * runtime's encoder; `encode` is the runtime's.
 */
export class ShortStringTextEncoder {
  readonly encoding = "utf-8";
  readonly #native = new TextEncoder();

  encode(input = ""): Uint8Array {
    return this.#native.encode(input);
  }

  encodeInto(source: string, destination: Uint8Array): EncodeIntoResult {
    if (source.length >= NATIVE_FROM_LENGTH) return this.#native.encodeInto(source, destination);
    return encodeUtf8Into(source, destination);
  }
}
