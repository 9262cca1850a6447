// A small deterministic PRNG for load tests, so a failing run can be replayed with the same seed.
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
