// The buyer's landing page as one form for both order sources: REST writes a path ("/?ref=CODE"), GraphQL's
// customer journey a full URL; the earning engine reads the `ref` parameter from either the same way.

/** Path and query of a landing page URL or path; null for none; the text unchanged when it is not a URL. */
export function landingSitePath(landing: string | null | undefined): string | null {
  if (landing === null || landing === undefined || landing.trim() === '') return null;
  try {
    const url = new URL(landing, 'https://landing.invalid');
    return `${url.pathname}${url.search}`;
  } catch {
    return landing;
  }
}
