import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { LISTING_LIMITS } from '../../src/content/index.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY, useServer } from '../helpers/server.ts';

const site = useFixture(() => startFixtureSite());
const t = useServer();
const clients: Client[] = [];
afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
});

const scrape = (body: Record<string, unknown>) => t.api('POST', '/api/v1/scrape/single', body);

describe('the listing format', () => {
  it("reads a shop's product grid: names, absolute links, prices of any locale, lazy pictures", async () => {
    const { status, json } = await scrape({
      url: `${site.origin}/listing/shop-category.html`,
      formats: ['markdown', 'listing'],
    });
    expect(status).toBe(200);
    const o = site.origin;
    expect(json.listing).toEqual([
      {
        name: 'Hori Hori Knife',
        url: `${o}/p/hori-hori-knife`,
        price: 34.5,
        image: `${o}/media/hori-hori.jpg`,
      },
      {
        // The struck-out price is the old one; the srcset's widest candidate is the picture.
        name: 'Bypass Pruner',
        url: `${o}/p/bypass-pruner`,
        price: 44.25,
        image: `${o}/media/pruner-960.webp`,
      },
      {
        name: 'Stainless Border Fork',
        url: `${o}/p/border-fork`,
        price: 1299,
        currency: 'EUR',
        image: `${o}/media/border-fork.jpg`,
      },
      {
        name: 'Oak Dibber',
        url: `${o}/p/dibber`,
        price: 12,
        currency: 'GBP',
        image: `${o}/media/dibber.jpg`,
      },
      {
        name: 'Copper Watering Can',
        url: `${o}/p/watering-can`,
        price: 89,
        currency: 'CHF',
        image: `${o}/media/can.jpg`,
      },
      {
        name: 'Garden Kneeler',
        url: `${o}/p/kneeler`,
        price: 1450,
        image: `${o}/media/kneeler.jpg`,
      },
    ]);
    expect(json.markdown).toContain('Garden Tools');
    // No charge of its own: the same as the markdown alone.
    const plain = await scrape({ url: `${site.origin}/listing/shop-category.html` });
    expect(json.cost).toBe(plain.json.cost);
  });

  it("reads a news section's stories without prices, passing over its menus and rail", async () => {
    const { json } = await scrape({
      url: `${site.origin}/listing/news-section.html`,
      formats: ['listing'],
    });
    expect(Object.keys(json)).not.toContain('markdown');
    expect(json.listing).toHaveLength(4);
    expect(json.listing[0]).toEqual({
      name: 'Kelp forests return to the northern bay',
      url: `${site.origin}/science/2026/11/kelp-forests-return`,
      description:
        'Divers counted twice as many fronds as last spring, after three cool summers in a row.',
    });
    // An amount in a headline is the story's, not a price.
    expect(json.listing[3].name).toBe('A $2 million storm surge model for the estuary');
    expect(json.listing.filter((i: { price?: number }) => i.price !== undefined)).toEqual([]);
    expect(json.listing.map((i: { url: string }) => new URL(i.url).pathname)).toEqual([
      '/science/2026/11/kelp-forests-return',
      '/science/2026/11/tide-gauge-century',
      '/science/2026/11/gull-tracking',
      '/science/2026/11/storm-surge-model',
    ]);
  });

  it('is [] on a page without repeated items (its menu and link list are not cards), and on text', async () => {
    const essay = await scrape({ url: `${site.origin}/listing/essay.html`, formats: ['listing'] });
    expect(essay.status).toBe(200);
    expect(essay.json.success).toBe(true);
    expect(essay.json.listing).toEqual([]);
    const text = await scrape({ url: `${site.origin}/notes.txt`, formats: ['listing'] });
    expect(text.json.listing).toEqual([]);
  });

  it('caps a huge listing at its first cards', { timeout: 60_000 }, async () => {
    const { status, json } = await scrape({
      url: `${site.origin}/listing/huge?n=1500`,
      formats: ['listing'],
    });
    expect(status).toBe(200);
    expect(json.listing).toHaveLength(LISTING_LIMITS.maxItems);
    expect(json.listing[0]).toEqual({
      name: 'Item number 0',
      url: `${site.origin}/p/item-0`,
      price: 10.99,
      image: `${site.origin}/media/item-0.jpg`,
    });
    expect(json.listing.at(-1).name).toBe(`Item number ${LISTING_LIMITS.maxItems - 1}`);
  });

  it('narrows to includeTags first, and names a misspelt format', async () => {
    const narrowed = await scrape({
      url: `${site.origin}/listing/shop-category.html`,
      formats: ['listing'],
      includeTags: ['.row:first-child'],
    });
    expect(narrowed.json.listing.map((i: { name: string }) => i.name)).toEqual([
      'Hori Hori Knife',
      'Bypass Pruner',
      'Stainless Border Fork',
    ]);
    const bad = await scrape({ url: `${site.origin}/listing/essay.html`, formats: ['listings'] });
    expect(bad.status).toBe(400);
    expect(bad.json.details[0].field).toMatch(/^formats/);
  });

  it('is served by /v2/scrape under its own name', async () => {
    const { status, json } = await t.api('POST', '/v2/scrape', {
      url: `${site.origin}/listing/shop-category.html`,
      formats: ['listing'],
    });
    expect(status).toBe(200);
    expect(json.data.listing).toHaveLength(6);
    expect(json.data.listing[2]).toMatchObject({ name: 'Stainless Border Fork', price: 1299 });
    expect(json.data.markdown).toBeUndefined();
  });

  it("reads in MCP's scrape tool as a list of cards, whole in structuredContent", async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${TEST_KEY}` } },
      }),
    );
    clients.push(client);
    const result = (await client.callTool({
      name: 'scrape',
      arguments: { url: `${site.origin}/listing/shop-category.html`, formats: ['listing'] },
    })) as {
      content: Array<{ text?: string }>;
      structuredContent?: { listing?: unknown[] };
    };
    const text = result.content.map((c) => c.text).join('\n');
    expect(text).toContain(`- [Oak Dibber](${site.origin}/p/dibber) (12 GBP)`);
    expect(result.structuredContent?.listing).toHaveLength(6);
    const none = (await client.callTool({
      name: 'scrape',
      arguments: { url: `${site.origin}/listing/essay.html`, formats: ['listing'] },
    })) as { content: Array<{ text?: string }> };
    expect(none.content[0]!.text).toContain('no repeated items');
  });
});
