// Work over a long list a chunk at a time with several chunks in flight: the pace of the import and of a
// configuration file's members (docs/performance.md#import). A chunk is handed to `work` whole (one batch
// read for all of it, then its writes); `onProgress` hears the items done after each chunk.

export interface ChunkOptions {
  /** Items a chunk. */
  size: number;
  /** Chunks in flight at once. */
  concurrency: number;
  /** Called after each chunk with the items done so far and the total. */
  onProgress?: (done: number, total: number) => void;
}

export async function forEachChunk<T>(items: readonly T[], options: ChunkOptions, work: (chunk: T[]) => Promise<void>): Promise<void> {
  const size = Math.max(1, options.size);
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  let done = 0;
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < chunks.length; index = next++) {
      const chunk = chunks[index]!;
      await work(chunk);
      done += chunk.length;
      options.onProgress?.(done, items.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, options.concurrency), chunks.length) }, worker));
}
