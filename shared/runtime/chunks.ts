// Work over a long list a chunk at a time with several chunks in flight: the pace of the import and of a
// configuration file's members (docs/performance.md#import). A chunk is handed to `work` whole (one batch
// read for all of it, then its writes); `onProgress` hears the items done after each chunk.

export interface ChunkOptions {
  /** Items a chunk at most; fewer when there are too few items to give every chunk in flight one. */
  size: number;
  /** Chunks in flight at once. */
  concurrency: number;
  /** Called after each chunk with the items done so far and the total. */
  onProgress?: (done: number, total: number) => void;
}

export async function forEachChunk<T>(items: readonly T[], options: ChunkOptions, work: (chunk: T[]) => Promise<void>): Promise<void> {
  const concurrency = Math.max(1, options.concurrency);
  // A short list is cut finer, so that it still has `concurrency` chunks in flight.
  const size = Math.max(1, Math.min(options.size, Math.ceil(items.length / concurrency)));
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
  await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, worker));
}
