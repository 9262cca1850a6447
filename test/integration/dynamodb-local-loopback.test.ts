// DynamoDB Local accepts any credentials, so the one the twin starts must be reachable from this
// machine only: its listening socket's local address, read from the kernel's socket tables as
// `ss -ltn` reads them, is the loopback address and nothing else. No traffic goes to any other address.
import { readFileSync } from 'node:fs';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../infra/local/dynamodb-local';

/** `/proc/net/tcp` and `tcp6` state 0A: TCP_LISTEN. */
const LISTEN = '0A';

/** One table's local address in the kernel's spelling (little-endian 32-bit words) made readable. */
function readableAddress(hex: string): string {
  const words = hex.match(/.{8}/g)!.map((word) => word.match(/../g)!.reverse().join(''));
  if (hex.length === 8)
    return words[0]!
      .match(/../g)!
      .map((byte) => parseInt(byte, 16))
      .join('.');
  const full = words.join('').toLowerCase();
  // ::ffff:a.b.c.d, an IPv4 address on a dual-stack socket.
  if (full.startsWith('00000000000000000000ffff')) return `::ffff:${readableAddress(hex.slice(24))}`;
  return full.match(/.{4}/g)!.join(':');
}

/** The local addresses of every listening TCP socket on `port`, IPv4 and IPv6, as `ss -ltn` shows them. */
function listeningAddresses(port: number): string[] {
  const addresses: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 4 || fields[3] !== LISTEN) continue;
      const [address, portHex] = fields[1]!.split(':');
      if (parseInt(portHex!, 16) === port) addresses.push(readableAddress(address!));
    }
  }
  return addresses;
}

const LOOPBACK = new Set(['127.0.0.1', '::ffff:127.0.0.1', '0000:0000:0000:0000:0000:0000:0000:0001']);

describe("the twin's DynamoDB Local", () => {
  let dynamo: DynamoDbLocal;
  beforeAll(async () => {
    dynamo = await startDynamoDbLocal();
  }, 120_000);
  afterAll(async () => {
    await dynamo?.stop();
  });

  it('reads addresses as the kernel writes them', () => {
    expect(readableAddress('0100007F')).toBe('127.0.0.1');
    expect(readableAddress('00000000')).toBe('0.0.0.0');
    expect(readableAddress('0000000000000000FFFF00000100007F')).toBe('::ffff:127.0.0.1');
    expect(readableAddress('00000000000000000000000000000000')).toBe('0000:0000:0000:0000:0000:0000:0000:0000');
    expect(readableAddress('00000000000000000000000001000000')).toBe('0000:0000:0000:0000:0000:0000:0000:0001');
  });

  it('listens on the loopback address only', () => {
    const addresses = listeningAddresses(dynamo.port);
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.filter((address) => !LOOPBACK.has(address))).toEqual([]);
    expect(dynamo.endpoint).toBe(`http://127.0.0.1:${dynamo.port}`);
  });
});
