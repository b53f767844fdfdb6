// Compiles the test chain's stand-in contracts (test/support/chain/contracts/*.sol) with solc-js
// and writes their abi and bytecode to test/support/chain/contracts.json, which is committed so
// tests never compile. Run after changing a contract: node scripts/compile-test-contracts.mjs
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import solc from 'solc';

const dir = join(import.meta.dirname, '..', 'test', 'support', 'chain');
const sources = Object.fromEntries(
  readdirSync(join(dir, 'contracts'))
    .filter((f) => f.endsWith('.sol'))
    .sort()
    .map((f) => [f, { content: readFileSync(join(dir, 'contracts', f), 'utf8') }]),
);
const input = {
  language: 'Solidity',
  sources,
  // paris: anvil's default hardfork runs it, and it has no PUSH0 question
  settings: { evmVersion: 'paris', optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
if (errors.length > 0) {
  for (const e of errors) console.error(e.formattedMessage);
  process.exit(1);
}
const artifacts = {};
for (const file of Object.keys(output.contracts).sort()) {
  for (const [name, c] of Object.entries(output.contracts[file])) artifacts[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
}
writeFileSync(join(dir, 'contracts.json'), `${JSON.stringify({ compiler: solc.version(), contracts: artifacts }, null, 2)}\n`);
console.log(`wrote ${Object.keys(artifacts).join(', ')} (solc ${solc.version()})`);
