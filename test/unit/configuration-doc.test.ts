// docs/configuration.md's minimal production configuration is a valid file (its comments removed), and it
// keeps to what belongs in a deployed stack's file: no Shopify credentials, no key values, no simulated customers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig } from '../../shared/config/schema';

const page = readFileSync(join(__dirname, '..', '..', 'docs', 'configuration.md'), 'utf8');
const section = /^## A minimal production configuration\n([\s\S]*?)(?=^## )/m.exec(page)?.[1] ?? '';
const example = /```jsonc\n([\s\S]*?)```/.exec(section)?.[1] ?? '';

/** JSON with `//` comments: each comment removed, outside strings only. */
function withoutComments(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (inString) {
      out += char;
      if (char === '\\') out += text[++i] ?? '';
      else if (char === '"') inString = false;
    } else if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i += 1;
      out += '\n';
    } else {
      out += char;
      if (char === '"') inString = true;
    }
  }
  return out;
}

describe('the minimal production configuration in docs/configuration.md', () => {
  it('passes the configuration validation', () => {
    // Act
    const config = parseConfig(JSON.parse(withoutComments(example)));

    // Assert
    expect(config.shops.map((shop) => shop.id)).toEqual(['my-shop']);
    expect(config.shops[0]!.earning_rules[0]).toMatchObject({ action: 'purchase', spend_unit: 1, points_to_give: 5 });
  });

  it('holds no Shopify credentials, no key values, no simulated customers and no members', () => {
    // Act
    const shop = JSON.parse(withoutComments(example)).shops[0] as Record<string, unknown>;

    // Assert
    expect(shop.platform).toEqual({ shop_domain: 'my-shop.myshopify.com' });
    expect(shop).not.toHaveProperty('api_keys');
    expect(shop).not.toHaveProperty('members');
  });
});
