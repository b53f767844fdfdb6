import { describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { MPP_AVAILABILITY } from '../../src/application/ports/mpp-availability.port.js';
import { startLocalChain } from '../support/chain/local-chain.js';
import { startRpcSwitch } from '../support/chain/rpc-switch.js';
import { deployEip3009Token } from '../support/chain/eip3009-token.js';
import { call } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * The gateway's price list (x402's discovery resources) against a real chain: each plugin's price as
 * configured, the token, network and recipient, the token's EIP-712 domain read from the chain; none
 * while MPP is not offered; a node that cannot tell the domain is a 502.
 */
const chain = await startLocalChain();
const rpc = await startRpcSwitch(chain.rpcUrl);
const token = await deployEip3009Token(chain, 'USD Coin', 'USDC');
const RECIPIENT = privateKeyToAccount(generatePrivateKey()).address;
const mppEnv = {
  MPP_RPC_URL: rpc.url,
  MPP_TOKEN_ADDRESS: token.address,
  MPP_RECIPIENT: RECIPIENT,
  MPP_PRICE_GENERATE_TEXT: '0.01',
  MPP_PRICE_AGENT: '0.05',
  MPP_PRICE_TTS: '0.025',
  MPP_PRICE_STT: '1.5',
  MPP_RPC_TIMEOUT_MS: '5000',
  MPP_SETTLER_PRIVATE_KEY: generatePrivateKey(),
};
const t = await startTestApp({ env: mppEnv });
const PATH = '/api/v1/gateway/discovery/resources';
const discover = (query = '', app = t.app) => call(app, { method: 'GET', url: `${PATH}${query}` });

const requirement = (amount: string) => ({
  scheme: 'exact',
  network: 'eip155:8453',
  amount,
  asset: token.address,
  payTo: RECIPIENT,
  maxTimeoutSeconds: 300,
  extra: { name: 'USD Coin', version: '2' },
});

describe('the price list while MPP is offered', () => {
  it('when anyone asks, then each plugin is listed with its configured price, the token, network and recipient, and the token domain read from the chain', async () => {
    const res = await discover();
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.body).toEqual({ x402Version: 2, items: expect.any(Array), pagination: { limit: 20, offset: 0, total: 4 } });
    const byPlugin = Object.fromEntries(res.body.items.map((i: { metadata: { plugin: string } }) => [i.metadata.plugin, i]));
    for (const [plugin, price, amount] of [
      ['generate-text', '0.01', '10000'],
      ['agent', '0.05', '50000'],
      ['tts', '0.025', '25000'],
      ['stt', '1.5', '1500000'],
    ] as const) {
      expect(byPlugin[plugin]).toEqual({
        resource: 'http://127.0.0.1:3000/api/v1/gateway',
        type: 'http',
        x402Version: 2,
        accepts: [requirement(amount)],
        lastUpdated: expect.any(Number),
        metadata: {
          plugin,
          description: expect.any(String),
          method: 'POST',
          headers: { 'X-Plugin-Id': plugin },
          price,
          amount,
          decimals: 6,
          asset: token.address,
          network: 'eip155:8453',
          payTo: RECIPIENT,
        },
      });
    }
    expect(Math.abs(res.body.items[0].lastUpdated - Date.now() / 1000)).toBeLessThan(600);
  });

  it('when a page is asked for, then that slice with the total', async () => {
    const all = (await discover()).body.items;
    const res = await discover('?limit=2&offset=1');
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual(all.slice(1, 3));
    expect(res.body.pagination).toEqual({ limit: 2, offset: 1, total: 4 });
    expect((await discover('?offset=10')).body).toMatchObject({ items: [], pagination: { total: 4 } });
  });

  it('when another resource type is asked for, then none (the gateway has http resources only)', async () => {
    expect((await discover('?type=mcp')).body).toMatchObject({ items: [], pagination: { total: 0 } });
    expect((await discover('?type=http')).body.items).toHaveLength(4);
  });

  it('when the query is malformed, then 400 VALIDATION_ERROR', async () => {
    for (const q of ['?limit=0', '?limit=101', '?limit=two', '?offset=-1', '?offset=1.5', `?type=${'x'.repeat(40)}`]) {
      const res = await discover(q);
      expect({ q, status: res.status, code: res.body.code }).toEqual({ q, status: 400, code: 'VALIDATION_ERROR' });
    }
  });
});

describe('the price list without a settler', () => {
  it("when MPP_SETTLER_PRIVATE_KEY is unset, then each plugin is still listed with its price, but no x402 offer (none could be settled)", async () => {
    const { MPP_SETTLER_PRIVATE_KEY: _unset, ...withoutSettler } = mppEnv;
    const app = await startTestApp({ env: withoutSettler });
    const res = await discover('', app.app);
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(4);
    for (const item of res.body.items) expect(item.accepts).toEqual([]);
    expect(res.body.items[0].metadata).toMatchObject({ plugin: 'agent', price: '0.05', amount: '50000', asset: token.address, payTo: RECIPIENT, network: 'eip155:8453' });
  });
});

describe('the price list without MPP', () => {
  it('when MPP is not configured, then 200 with no items (nothing can be paid on chain)', async () => {
    const bare = await startTestApp();
    const res = await discover('', bare.app);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ x402Version: 2, items: [], pagination: { limit: 20, offset: 0, total: 0 } });
  });

  it('when the node is down before its chain id was known, then no items (MPP is not offered while the node is silent)', async () => {
    const downRpc = await startRpcSwitch(chain.rpcUrl);
    downRpc.setUp(false);
    const app = await startTestApp({ env: { ...mppEnv, MPP_RPC_URL: downRpc.url, MPP_RPC_TIMEOUT_MS: '2000' } });
    const res = await discover('', app.app);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([]);
  });

  it("when the node fails while the token's domain is read, then 502 UPSTREAM_UNAVAILABLE, and the next ask after it recovers is answered", async () => {
    const flaky = await startRpcSwitch(chain.rpcUrl);
    const app = await startTestApp({ env: { ...mppEnv, MPP_RPC_URL: flaky.url, MPP_RPC_TIMEOUT_MS: '2000' } });
    // the chain id is known (MPP offered) before the node goes down
    expect(await app.container.resolve(MPP_AVAILABILITY).check()).toBe(true);
    flaky.setUp(false);
    const res = await discover('', app.app);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 502, code: 'UPSTREAM_UNAVAILABLE' });
    flaky.setUp(true);
    const again = await discover('', app.app);
    expect(again.status).toBe(200);
    expect(again.body.items[0].accepts[0].extra).toEqual({ name: 'USD Coin', version: '2' });
  });
});
