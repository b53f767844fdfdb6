import { createSiweMessage } from 'viem/siwe';
import { api } from '../../api/client.js';
import { ErrorMessage } from '../error-message.js';
import { useAction } from '../use-async.js';

/** The EIP-1193 provider a wallet extension injects. */
interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/** The wallet the browser has, if any. */
export function injectedWallet(): Eip1193Provider | undefined {
  const eth = (window as unknown as { ethereum?: Eip1193Provider }).ethereum;
  return eth && typeof eth.request === 'function' ? eth : undefined;
}

/** Base: the only chain sign-in accepts (CONTRACT.md 4). */
const BASE_CHAIN_ID = 8453;

/** A wallet that refused, or an account the wallet did not give: said as a sentence. */
class WalletRefused extends Error {}

/**
 * Sign-In with Ethereum: the wallet's account, a fresh nonce from the service, the EIP-4361
 * message for this site on Base, the wallet's signature, then POST /api/auth/callback/wallet
 * (which sets the session cookie). `onSignedIn` refreshes the session and moves on.
 */
export function WalletSignIn({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const wallet = injectedWallet();
  const signIn = useAction(async () => {
    if (!wallet) return;
    let address: `0x${string}` | undefined;
    try {
      const accounts = (await wallet.request({ method: 'eth_requestAccounts' })) as string[];
      address = accounts[0] as `0x${string}` | undefined;
    } catch {
      throw new WalletRefused('Your wallet did not share an account. Unlock it and allow this site, then try again.');
    }
    if (!address || !/^0x[0-9a-fA-F]{40}$/.test(address)) throw new WalletRefused('Your wallet did not share an account. Unlock it and allow this site, then try again.');
    const { nonce } = await api.get<{ nonce: string }>('/api/auth/nonce');
    const message = createSiweMessage({
      domain: window.location.host,
      address,
      statement: 'Sign in to Agent Host.',
      uri: window.location.origin,
      version: '1',
      chainId: BASE_CHAIN_ID,
      nonce,
      issuedAt: new Date(),
    });
    let signature: string;
    try {
      signature = (await wallet.request({ method: 'personal_sign', params: [utf8Hex(message), address] })) as string;
    } catch {
      throw new WalletRefused('The wallet did not sign the message, so you are not signed in. Try again when you are ready.');
    }
    await api.post('/api/auth/callback/wallet', { message, signature });
    await onSignedIn();
  });
  if (!wallet) return null;
  const error = signIn.error instanceof WalletRefused ? undefined : signIn.error;
  return (
    <div class="wallet-sign-in">
      <p class="muted">Or use a wallet on Base:</p>
      <button type="button" class="secondary" disabled={signIn.busy} onClick={() => void signIn.act()}>
        Sign in with a wallet
      </button>
      {signIn.error instanceof WalletRefused ? (
        <p class="error" role="alert">
          {signIn.error.message}
        </p>
      ) : (
        <ErrorMessage error={error} />
      )}
    </div>
  );
}

/** personal_sign takes the message as 0x-prefixed hex of its UTF-8 bytes. */
function utf8Hex(text: string): string {
  let hex = '0x';
  for (const b of new TextEncoder().encode(text)) hex += b.toString(16).padStart(2, '0');
  return hex;
}
