// A dependency-free SVG chart of the benchmark: p50/p99 per endpoint, and list latency by shop size.

interface Bar {
  name: string;
  p50: number;
  p99: number;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderChart(
  endpoints: Bar[],
  floor: { p50: number; p99: number } | null,
  scale: Array<{ members: number; case: string; p50: number; failed?: string | null }>,
): string {
  const bars: Bar[] = [...(floor ? [{ name: 'bare DynamoDB GetItem', ...floor }] : []), ...endpoints];
  const width = 900;
  const rowHeight = 22;
  const left = 290;
  const max = Math.max(...bars.map((b) => b.p99), 1);
  const scaleX = (value: number) => ((width - left - 80) * value) / max;
  let y = 40;
  const parts: string[] = [`<text x="10" y="24" font-size="16" font-weight="bold">Latency per endpoint (ms): p50 dark, p99 light</text>`];
  for (const bar of bars) {
    parts.push(
      `<text x="10" y="${y + 15}" font-size="12">${escape(bar.name)}</text>`,
      `<rect x="${left}" y="${y + 3}" width="${scaleX(bar.p99).toFixed(1)}" height="14" fill="#9ecae1"/>`,
      `<rect x="${left}" y="${y + 3}" width="${scaleX(bar.p50).toFixed(1)}" height="14" fill="#3182bd"/>`,
      `<text x="${left + scaleX(bar.p99) + 6}" y="${y + 15}" font-size="11">${bar.p50.toFixed(1)} / ${bar.p99.toFixed(1)}</text>`,
    );
    y += rowHeight;
  }
  if (scale.length > 0) {
    y += 30;
    parts.push(`<text x="10" y="${y}" font-size="16" font-weight="bold">GET /v1/customers p50 (ms, log scale) by shop size</text>`);
    y += 10;
    // Log scale: the first page takes tens of milliseconds, the deepest requests seconds.
    const logMax = Math.log10(Math.max(...scale.map((s) => s.p50), 10));
    const logWidth = (value: number) => ((width - left - 200) * Math.max(0, Math.log10(Math.max(value, 1)))) / logMax;
    for (const row of scale) {
      const w = logWidth(row.p50);
      const label = row.failed ? `failed: ${row.failed}` : row.p50.toFixed(1);
      parts.push(
        `<text x="10" y="${y + 15}" font-size="12">${row.members.toLocaleString('en')} members, ${escape(row.case)}</text>`,
        `<rect x="${left}" y="${y + 3}" width="${w.toFixed(1)}" height="14" fill="${row.failed ? '#bdbdbd' : '#e6550d'}"/>`,
        `<text x="${left + w + 6}" y="${y + 15}" font-size="11">${escape(label)}</text>`,
      );
      y += rowHeight;
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y + 20}" font-family="sans-serif">\n<rect width="100%" height="100%" fill="white"/>\n${parts.join('\n')}\n</svg>\n`;
}
