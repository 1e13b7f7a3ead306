/**
 * A progress bar for long uploads and packs: files, bytes and rate on one redrawn line on a
 * terminal; a plain line every few seconds otherwise (CI logs, tests).
 */
export interface Progress {
  addFile(): void;
  addBytes(n: number): void;
  /** Prints a line above the bar (an error, a note). */
  note(line: string): void;
  done(): void;
}

export const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export function progressBar(label: string, totalFiles: number, totalBytes: number, out: NodeJS.WriteStream = process.stderr): Progress {
  const started = performance.now();
  let files = 0;
  let bytes = 0;
  let lastPlain = 0;
  const tty = Boolean(out.isTTY);
  const line = () => {
    const seconds = Math.max(0.001, (performance.now() - started) / 1000);
    const share = totalBytes > 0 ? bytes / totalBytes : totalFiles > 0 ? files / totalFiles : 1;
    const width = 24;
    const filled = Math.round(Math.min(1, share) * width);
    return `${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${files}/${totalFiles} files, ${mb(bytes)}/${mb(totalBytes)}, ${mb(bytes / seconds)}/s`;
  };
  const draw = (force = false) => {
    if (tty) out.write(`\r\x1b[2K${line()}`);
    else if (force || performance.now() - lastPlain > 5000) {
      lastPlain = performance.now();
      out.write(line() + "\n");
    }
  };
  return {
    addFile() {
      files++;
      draw();
    },
    addBytes(n) {
      bytes += n;
      if (tty) draw();
    },
    note(text) {
      if (tty) out.write(`\r\x1b[2K${text}\n`);
      else out.write(text + "\n");
      draw();
    },
    done() {
      if (tty) out.write(`\r\x1b[2K${line()}\n`);
      else draw(true);
    },
  };
}
