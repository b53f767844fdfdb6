import { inject, injectable } from 'tsyringe';
import { ChainNotConfiguredError } from '../../domain/identity/identity.errors.js';
import { decimalToTokenUnits } from '../../domain/shared/token-units.js';
import { TOKEN_GATE_READER, type TokenGateReader } from '../ports/token-gate-reader.port.js';
import { TOKEN_GATE_SETTINGS, type TokenGateSettings } from '../ports/token-gate-settings.port.js';

export interface TokenGateResult {
  /** lowercase */
  address: `0x${string}`;
  hasAccess: boolean;
  /** true: access here depends on holding the token */
  tokenGated: true;
  /** balance and threshold in the token's base units */
  balance: bigint;
  minBalance: bigint;
  /** the configured threshold as written (decimal token units) */
  minBalanceDecimal: string;
  token: string;
  decimals: number;
  chain: 'base';
  contractAddress: `0x${string}`;
  /** the node's origin only: its userinfo, path (where providers put keys) and query are dropped */
  rpcEndpoint: string;
}

/**
 * Does this address hold at least TOKEN_GATE_MIN_BALANCE of the gating token on Base? Read on
 * chain (balances cached briefly by the reader). A node that fails is UpstreamUnavailableError
 * (502): "no access" is never answered for a balance nobody could read. Not configured: 503.
 * Also the check behind social sign-in with an address.
 */
@injectable()
export class CheckTokenGate {
  constructor(
    @inject(TOKEN_GATE_READER) private readonly reader: TokenGateReader,
    @inject(TOKEN_GATE_SETTINGS) private readonly settings: TokenGateSettings,
  ) {}

  async execute(address: `0x${string}`): Promise<TokenGateResult> {
    const { tokenAddress, rpcUrl, minBalance } = this.settings;
    if (!tokenAddress) throw new ChainNotConfiguredError('Token gating (TOKEN_GATE_ADDRESS)');
    if (!rpcUrl) throw new ChainNotConfiguredError('Token gating (BASE_RPC_URL)');
    const holder = address.toLowerCase() as `0x${string}`;
    const [token, balance] = await Promise.all([this.reader.token(), this.reader.balanceOf(holder)]);
    // a threshold nobody could hold exactly rounds up: a balance meets it only when it is at least as large
    const threshold = decimalToTokenUnits(minBalance, token.decimals, { rounding: 'up' });
    if (threshold === null) throw new RangeError(`TOKEN_GATE_MIN_BALANCE is not a decimal: ${minBalance}`);
    return {
      address: holder,
      hasAccess: balance >= threshold,
      tokenGated: true,
      balance,
      minBalance: threshold,
      minBalanceDecimal: minBalance,
      token: token.symbol,
      decimals: token.decimals,
      chain: 'base',
      contractAddress: tokenAddress,
      rpcEndpoint: new URL(rpcUrl).origin,
    };
  }
}
