import type { ChildProcess } from 'node:child_process';

/** A child's output, kept for error messages. */
export interface ChildOutput {
  /** The last lines the child printed, oldest first. */
  tail(): string;
}

/**
 * Forwards each line a child prints on stdout and stderr to `log` (prefixed), keeping the last
 * `keep` lines. A line without its newline is flushed at the end of the stream, and a program
 * printing without newlines cannot grow the buffer past 8 KiB.
 */
export function captureLines(child: ChildProcess, prefix: string, log: (line: string) => void, keep = 40): ChildOutput {
  const last: string[] = [];
  const emit = (line: string) => {
    if (!line.trim()) return;
    last.push(line);
    if (last.length > keep) last.shift();
    log(`${prefix}: ${line}`);
  };
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      if (partial.length > 8_192) lines.push(partial), (partial = '');
      lines.forEach(emit);
    });
    stream?.on('end', () => {
      emit(partial);
      partial = '';
    });
  }
  return { tail: () => last.join('\n') };
}
