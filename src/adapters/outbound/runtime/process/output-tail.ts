import type { ChildProcess } from 'node:child_process';

/** Forwards the program's stdout and stderr to the log line by line, keeping the last lines for error messages. */
export class OutputTail {
  private readonly last: string[] = [];

  constructor(child: ChildProcess, prefix: string, log: (line: string) => void, keep = 20) {
    for (const stream of [child.stdout, child.stderr]) {
      let partial = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop() ?? '';
        // a program printing without newlines must not grow this without bound
        if (partial.length > 8_192) lines.push(partial), (partial = '');
        for (const line of lines) {
          if (!line.trim()) continue;
          this.last.push(line);
          if (this.last.length > keep) this.last.shift();
          log(`${prefix}: ${line}`);
        }
      });
    }
  }

  tail(): string {
    return this.last.join('\n');
  }
}
