import { useState } from 'preact/hooks';
import { api } from '../api/client.js';
import { CopyButton } from '../components/accounts/copy-button.js';
import { SelectField } from '../components/billing/select-field.js';
import { ErrorMessage } from '../components/error-message.js';
import { DISCOVERY_PATH, type DiscoveryDocument, type DiscoveryItem } from '../components/gateway/types.js';
import { x402FetchSnippet } from '../components/gateway/x402-snippet.js';
import { useLoad } from '../components/use-async.js';
import '../styles/gateway.css';

/** Names of the chains a CAIP-2 `eip155:<id>` network is most likely to be. */
const CHAINS: Record<string, string> = { 'eip155:8453': 'Base', 'eip155:84532': 'Base Sepolia', 'eip155:1': 'Ethereum' };
const networkName = (network: string) => (CHAINS[network] ? `${CHAINS[network]} (${network})` : network);

/**
 * /pay-per-call: the gateway's prices for agent wallets, read from the public discovery document
 * (decision 0436), and the `@x402/fetch` code that pays them. Anyone can read it, signed in or not.
 */
export function PayPerCallPage() {
  const doc = useLoad(() => api.get<DiscoveryDocument>(DISCOVERY_PATH));
  return (
    <section class="gateway-pay">
      <h1>Pay per call</h1>
      <p>
        Agents and scripts can call the gateway (<code>POST /api/v1/gateway</code>) without an account and pay each call on chain: the first answer is a 402 naming the
        price, the client signs a payment, the service settles it and answers.
      </p>
      {doc.error ? <ErrorMessage error={doc.error} /> : !doc.data ? <p aria-busy="true">Loading prices…</p> : <Offer items={doc.data.items} />}
    </section>
  );
}

function Offer({ items }: { items: DiscoveryItem[] }) {
  if (items.length === 0)
    return (
      <p class="notice" role="status">
        Payments per call are not offered by this service right now: it has no on-chain payments configured, or its chain cannot be reached. Use an{' '}
        <a href="/settings">API key</a> or a <a href="/pricing">plan</a> instead.
      </p>
    );
  const x402 = items.every((i) => i.accepts.length > 0);
  return (
    <>
      <PriceTable items={items} />
      {x402 ? (
        <Snippet items={items} />
      ) : (
        <p class="notice" role="status">
          This service does not settle signed payments (x402 or MPP authorizations), so a standard client cannot pay it. Pay with a transfer's transaction hash
          instead (the <code>Authorization: Payment</code> credential, see the <a href="/docs" target="_top">API docs</a>).
        </p>
      )}
    </>
  );
}

function PriceTable({ items }: { items: DiscoveryItem[] }) {
  return (
    <section class="panel" aria-labelledby="gateway-prices">
      <h2 id="gateway-prices">Prices</h2>
      <div class="table-wrap">
        <table>
          <caption class="sr-only">Price of one call of each gateway plugin</caption>
          <thead>
            <tr>
              <th scope="col">Plugin</th>
              <th scope="col">Price</th>
              <th scope="col">Token</th>
              <th scope="col">Network</th>
              <th scope="col">Paid to</th>
            </tr>
          </thead>
          <tbody>
            {items.map((i) => {
              const m = i.metadata;
              const tokenName = i.accepts[0]?.extra.name;
              return (
                <tr key={m.plugin} data-plugin={m.plugin}>
                  <th scope="row">
                    <code>{m.plugin}</code>
                    <span class="muted gateway-description">{m.description}</span>
                  </th>
                  <td>
                    {m.price}
                    {tokenName ? ` ${tokenName}` : ''}
                  </td>
                  <td>
                    {tokenName ? `${tokenName} ` : ''}
                    <code class="gateway-address">{m.asset}</code>
                  </td>
                  <td>{networkName(m.network)}</td>
                  <td>
                    <code class="gateway-address">{m.payTo}</code>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Snippet({ items }: { items: DiscoveryItem[] }) {
  const [plugin, setPlugin] = useState(items.find((i) => i.metadata.plugin === 'generate-text')?.metadata.plugin ?? items[0]!.metadata.plugin);
  const item = items.find((i) => i.metadata.plugin === plugin) ?? items[0]!;
  const offer = item.accepts[0]!;
  const code = x402FetchSnippet({ gatewayUrl: item.resource, plugin: item.metadata.plugin, network: offer.network, asset: offer.asset, amount: offer.amount });
  return (
    <section class="panel" aria-labelledby="gateway-snippet">
      <h2 id="gateway-snippet">Pay with @x402/fetch</h2>
      <p>
        With <code>npm install @x402/fetch @x402/evm viem</code>, this pays one call from the wallet whose key is in <code>PAYER_KEY</code> (it needs the token, no
        ether). Save it as an <code>.mjs</code> file and run it with Node 20 or later.
      </p>
      <SelectField label="Plugin" value={plugin} onValue={setPlugin} options={items.map((i) => ({ id: i.metadata.plugin, label: i.metadata.plugin }))} />
      <pre class="gateway-snippet" data-testid="x402-snippet" tabIndex={0}>
        <code>{code}</code>
      </pre>
      <CopyButton text={code} label="Copy code" />
    </section>
  );
}
