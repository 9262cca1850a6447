// Where things are in a configuration file's text: the line and column of the value at a JSON path (or of
// the nearest enclosing value the file has), and of a JSON syntax error, so every message points into the file.
import { type Path } from './config-errors';

export interface Position {
  line: number;
  column: number;
}

/** One value of the document: where it starts, and its members' positions (keys and values). */
interface Node {
  start: number;
  members?: Map<string, { key: number; value: Node }>;
  items?: Node[];
}

/** Line and column (both from 1) of a character offset. */
export function positionAt(source: string, offset: number): Position {
  const before = source.slice(0, Math.max(0, Math.min(offset, source.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

/**
 * Where JSON.parse stopped, found by a strict pass of its own (the parser's messages differ between Node
 * versions and do not always carry a position): the offset and what was found there.
 */
export function syntaxError(source: string): { offset: number; message: string } {
  let i = 0;
  const fail = (): never => {
    throw new SyntaxAt(i);
  };
  const skip = () => {
    while (i < source.length && ' \t\n\r'.includes(source[i]!)) i += 1;
  };
  const expect = (char: string) => (source[i] === char ? (i += 1) : fail());
  const string = () => {
    expect('"');
    for (;;) {
      if (i >= source.length || source.charCodeAt(i) < 0x20) fail();
      const char = source[i]!;
      if (char === '"') return void (i += 1);
      if (char !== '\\') {
        i += 1;
        continue;
      }
      i += 1;
      if (source[i] === 'u') {
        i += 1;
        for (let h = 0; h < 4; h += 1) {
          if (!/[0-9a-fA-F]/.test(source[i] ?? '')) fail();
          i += 1;
        }
      } else if ('"\\/bfnrt'.includes(source[i] ?? 'x')) i += 1;
      else fail();
    }
  };
  const value = (): void => {
    skip();
    const char = source[i];
    if (char === '{') {
      i += 1;
      skip();
      if (source[i] === '}') return void (i += 1);
      for (;;) {
        skip();
        string();
        skip();
        expect(':');
        value();
        skip();
        if (source[i] === ',') i += 1;
        else return void expect('}');
      }
    }
    if (char === '[') {
      i += 1;
      skip();
      if (source[i] === ']') return void (i += 1);
      for (;;) {
        value();
        skip();
        if (source[i] === ',') i += 1;
        else return void expect(']');
      }
    }
    if (char === '"') return string();
    for (const literal of ['true', 'false', 'null']) if (source.startsWith(literal, i)) return void (i += literal.length);
    const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    number.lastIndex = i;
    if (number.test(source)) i = number.lastIndex;
    else fail();
  };
  try {
    value();
    skip();
    if (i < source.length) fail();
  } catch (error) {
    if (!(error instanceof SyntaxAt)) throw error;
  }
  return { offset: i, message: i >= source.length ? 'unexpected end of file' : `unexpected ${JSON.stringify(source[i])}` };
}

class SyntaxAt extends Error {
  constructor(readonly offset: number) {
    super(`JSON syntax error at ${offset}`);
  }
}

/**
 * A locator for valid JSON text: `locate(path)` is the position of the value at `path`, or, when the
 * file stops short of it (a missing key, a default), of the deepest value on the way there; for a key
 * the file has too many of (`unknown key`), `locate(path, true)` is the key itself.
 */
export function jsonLocator(source: string): (path: Path, atKey?: boolean) => Position {
  let root: Node | undefined;
  try {
    root = scan(source);
  } catch {
    root = undefined;
  }
  return (path, atKey = false) => {
    if (!root) return positionAt(source, 0);
    let node = root;
    let offset = root.start;
    for (const segment of path) {
      if (node.members && typeof segment === 'string' && node.members.has(segment)) {
        const member = node.members.get(segment)!;
        node = member.value;
        offset = atKey && segment === path[path.length - 1] ? member.key : member.value.start;
      } else if (node.items && typeof segment === 'number' && node.items[segment]) {
        node = node.items[segment];
        offset = node.start;
      } else break;
    }
    return positionAt(source, offset);
  };
}

/** A small scanner over text JSON.parse accepted: positions only, values are not built. */
function scan(source: string): Node {
  let i = source.charCodeAt(0) === 0xfeff ? 1 : 0;
  const skip = () => {
    while (i < source.length && /\s/.test(source[i]!)) i += 1;
  };
  const string = (): string => {
    const start = i;
    i += 1;
    while (source[i] !== '"') i += source[i] === '\\' ? 2 : 1;
    i += 1;
    return JSON.parse(source.slice(start, i)) as string;
  };
  const value = (): Node => {
    skip();
    const start = i;
    const char = source[i];
    if (char === '{') {
      i += 1;
      const members = new Map<string, { key: number; value: Node }>();
      skip();
      if (source[i] === '}') i += 1;
      else
        for (;;) {
          skip();
          const key = i;
          const name = string();
          skip();
          i += 1; // ':'
          // The last of a repeated key is the one JSON.parse keeps.
          members.set(name, { key, value: value() });
          skip();
          if (source[i++] === '}') break;
        }
      return { start, members };
    }
    if (char === '[') {
      i += 1;
      const items: Node[] = [];
      skip();
      if (source[i] === ']') i += 1;
      else
        for (;;) {
          items.push(value());
          skip();
          if (source[i++] === ']') break;
        }
      return { start, items };
    }
    if (char === '"') string();
    else while (i < source.length && /[^\s,\]}]/.test(source[i]!)) i += 1;
    return { start };
  };
  return value();
}
