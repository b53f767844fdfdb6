import { afterAll, describe, expect, it } from 'vitest';
import { generateTextBody } from '../../../src/application/gateway/plugin-bodies.js';
import { ReleaseStaleReservations } from '../../../src/application/billing/release-stale-reservations.use-case.js';
import { patientBreakers, reservationsOf, unitsUsed } from '../../support/ai/chat-fixtures.js';
import { startFakeOpenAiServer } from '../../support/ai/fake-openai-server.js';
import { callWith, meteredPayer, pluginOf } from '../../support/gateway-payers.js';
import { signUpAndIn } from '../../support/http-client.js';
import { sleep } from '../../support/polling.js';
import { startTestApp } from '../../support/test-app.js';

/*
 * The gateway's metered stream (generate-text) held by a consumer that stops reading after the
 * first delta, past RESERVATION_STALE_MS (5 s here, leases renewed every 1.25 s): the sweep must
 * leave its units held, and the end of the stream settle them once.
 */
const STALE_MS = 5_000;
const PLATFORM_KEY = 'sk-or-gateway-platform';
const provider = await startFakeOpenAiServer({ apiKey: PLATFORM_KEY, behaviour: { kind: 'reply', usage: { prompt: 900, completion: 1_500 } } });
afterAll(() => provider.close());
const { app, container, infra } = await startTestApp({
  env: { OPENROUTER_API_KEY: PLATFORM_KEY, OPENROUTER_BASE_URL: provider.baseUrl, AI_TIMEOUT_MS: '1000', RESERVATION_STALE_MS: String(STALE_MS) },
  override: patientBreakers,
});
const owner = infra.pools.owner;
const plugin = pluginOf(container, 'generate-text');

describe('generate-text plugin: a metered stream left unread past the stale bound', () => {
  it('when the sweep runs while the stream lives, then nothing is released; its end settles the real amount once', async () => {
    const user = await signUpAndIn(app);
    const payer = await meteredPayer(container, owner, user);
    const events = plugin.stream!(callWith(payer, generateTextBody.parse({ prompt: 'Say hello' })))[Symbol.asyncIterator]();
    expect(await events.next()).toEqual({ done: false, value: { type: 'delta', content: 'Hello' } });
    const [held] = await reservationsOf(owner, user.id);
    expect(held).toMatchObject({ status: 'open' });

    const sweep = container.resolve(ReleaseStaleReservations);
    for (let i = 0; i < 2; i++) {
      await sleep(STALE_MS + 100);
      expect(await sweep.execute()).toEqual({ released: 0 });
      expect(await reservationsOf(owner, user.id)).toEqual([{ units: held!.units, status: 'open', settled_units: null }]);
    }

    let last: unknown;
    for (let e = await events.next(); !e.done; e = await events.next()) last = e.value;
    expect(last).toEqual({ type: 'done', result: { message: 'Hello, world!' } });
    expect((await unitsUsed(container, user.id)).used).toBe(3); // 2,400 tokens
    expect(await reservationsOf(owner, user.id)).toEqual([{ units: held!.units, status: 'settled', settled_units: 3 }]);
  }, 60_000);
});
