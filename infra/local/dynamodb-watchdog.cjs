// Runs DynamoDB Local's Java as a child and stops it when whoever started it is gone, however that
// process died (SIGKILL included): its stdin is a pipe from the starter, which the kernel closes then.
// Usage: node dynamodb-watchdog.cjs java ARGS... (stdin: a pipe the starter keeps open while it lives)
const { spawn } = require('node:child_process');
const { constants } = require('node:os');

const [command, ...args] = process.argv.slice(2);
const java = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  java.kill('SIGTERM');
  // The JVM runs its shutdown hooks on SIGTERM; one that hangs must not keep the port forever.
  setTimeout(() => java.kill('SIGKILL'), 5000).unref();
}

// End of stdin: the starter closed it to stop us, or it is gone and the kernel closed it.
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, stop);

java.on('error', (error) => {
  console.error(`cannot run ${command}: ${error.message}`);
  process.exit(127);
});
java.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
