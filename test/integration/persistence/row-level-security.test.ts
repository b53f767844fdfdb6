import { describe, expect, it } from 'vitest';
import { openTestPersistence } from '../../support/persistence.js';
import { insertUser } from '../../support/builders.js';
import { NO_KEY_LIMITS } from '../../../src/domain/accounts/api-key-limits.js';

const TODAY = new Date().toISOString().slice(0, 10);

const { pools, uow } = await openTestPersistence();
const alice = await insertUser(uow);
const bob = await insertUser(uow);
await uow.asUser(alice.id, (s) => s.apiKeys.insert({ name: 'alice key', lookupId: 'alicelookup1', keyHash: 'h', preview: 'sk_a…', limits: NO_KEY_LIMITS }));

describe('row-level security', () => {
  it('when a query runs outside any unit of work, then it sees no user rows', async () => {
    for (const table of ['users', 'sessions', 'api_keys']) {
      const r = await pools.user.query(`select count(*)::int as n from ${table}`);
      expect(r.rows[0].n, table).toBe(0);
    }
  });

  it('when the setting is empty, then nothing is visible', async () => {
    const client = await pools.user.connect();
    try {
      await client.query("BEGIN; SELECT set_config('app.user_id', '', true)");
      const r = await client.query('select count(*)::int as n from users');
      expect(r.rows[0].n).toBe(0);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
  });

  it('when acting as a user, then only that user is visible', async () => {
    const rows = await uow.asUser(bob.id, async (s) => {
      const me = await s.users.me();
      const keys = await s.apiKeys.list(TODAY);
      return { me, keys };
    });
    expect(rows.me?.id).toBe(bob.id);
    expect(rows.keys).toEqual([]);
    const direct = await uow.asUser(bob.id, async () => {
      const c = await pools.user.query('select 1'); // another connection: no identity at all
      return c.rowCount;
    });
    expect(direct).toBe(1);
  });

  it("when user B tries to read, change or delete A's rows, then nothing happens", async () => {
    const keyId = (await uow.asUser(alice.id, (s) => s.apiKeys.list(TODAY)))[0]!.id;
    const result = await uow.asUser(bob.id, async (s) => ({
      read: await s.apiKeys.get(keyId, TODAY),
      deleted: await s.apiKeys.delete(keyId),
    }));
    expect(result).toEqual({ read: null, deleted: false });
    const client = await pools.user.connect();
    try {
      await client.query(`BEGIN; SELECT set_config('app.user_id', '${bob.id}', true)`);
      const upd = await client.query(`update users set name = 'pwned' where id = $1`, [alice.id]);
      expect(upd.rowCount).toBe(0);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect((await uow.asUser(alice.id, (s) => s.users.me()))?.name).toBe(alice.name);
    expect(await uow.asUser(alice.id, (s) => s.apiKeys.get(keyId, TODAY))).not.toBeNull();
  });

  it("when user B inserts a row owned by A, then the policy refuses it", async () => {
    const client = await pools.user.connect();
    try {
      await client.query(`BEGIN; SELECT set_config('app.user_id', '${bob.id}', true)`);
      await expect(
        client.query(`insert into api_keys (user_id, name, lookup_id, key_hash, preview) values ($1, 'x', 'bobinsert1', 'h', 'p')`, [alice.id]),
      ).rejects.toThrow(/row-level security/);
      await client.query('ROLLBACK');
      await client.query(`BEGIN; SELECT set_config('app.user_id', '${bob.id}', true)`);
      await expect(client.query(`insert into outbox (user_id, topic, payload) values ($1, 'user.updated', '{}')`, [alice.id])).rejects.toThrow(/row-level security/);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
  });

  it('when the request role tries to leave its role or bypass RLS, then it cannot', async () => {
    const r = await pools.user.query(`select rolbypassrls from pg_roles where rolname = current_user`);
    expect(r.rows[0].rolbypassrls).toBe(false);
    const owner = await pools.user.query(`select count(*)::int as n from pg_tables where schemaname = 'public' and tableowner in ('app_user', 'app_system')`);
    expect(owner.rows[0].n).toBe(0);
  });

  it('the system unit of work can touch only the tables it lists', async () => {
    const { rows } = await pools.owner.query(`
      select table_schema || '.' || table_name as t, string_agg(distinct privilege_type, ',' order by privilege_type) as p
        from information_schema.role_table_grants where grantee = 'app_system' group by 1 order by 1`);
    const colGrants = await pools.owner.query(`
      select table_name || '.' || column_name || ':' || privilege_type as g from information_schema.column_privileges
       where grantee = 'app_system' and table_schema = 'public' and table_name in ('api_keys', 'api_key_usage', 'usage_reservations', 'agents', 'agent_mailbox', 'one_call_grants', 'outbox', 'wallet_identities', 'social_session_families', 'social_refresh_tokens', 'mpp_challenges', 'mpp_payments', 'mpp_authorizations') and privilege_type = 'UPDATE'
       order by 1`);
    expect(Object.fromEntries(rows.map((r) => [r.t, r.p]))).toEqual({
      'pgboss.job': 'INSERT',
      'pgboss.queue': 'SELECT',
      // Agents (issue 8): the provision job creates and moves instances, moves agents (status only), appends events and messages.
      // The pruning job deletes message events past retention, summed into agent_message_totals (decision 0466).
      'public.agent_events': 'DELETE,INSERT,SELECT',
      // The mailbox worker reads the queue and closes messages (state columns only, below); replies are new messages;
      // the pruning job deletes answered rows past retention.
      'public.agent_mailbox': 'DELETE,SELECT',
      // A page's total (kept by a trigger) and the pruned events' totals (decision 0466).
      // An agent's answers read its MCP servers' offered tools, and the door reads the sealed headers to call one.
      'public.agent_mcp_servers': 'SELECT',
      'public.agent_message_counts': 'SELECT',
      'public.agent_message_totals': 'INSERT,SELECT,UPDATE',
      // reset-memory in the worker deletes stored memory; the prompt reads it (issue 9).
      'public.agent_memory': 'DELETE,SELECT',
      'public.agent_messages': 'INSERT,SELECT',
      // The system agent reads (provisioning, the mailbox) join the verification record.
      'public.agent_verifications': 'SELECT',
      'public.agents': 'SELECT',
      // The meter counts each API key's units a day (only used_units moves, below); pruned with daily_usage.
      'public.api_key_usage': 'DELETE,INSERT,SELECT',
      'public.api_keys': 'SELECT',
      'public.credit_purchases': 'INSERT',
      // the pruning job deletes days older than the retention (issue 12)
      'public.daily_usage': 'DELETE,INSERT,SELECT,UPDATE',
      'public.email_verifications': 'INSERT,SELECT,UPDATE',
      // Metrics (issue 12): the sampling job writes and prunes samples and ticks; api processes add request timings.
      'public.instance_samples': 'DELETE,INSERT,SELECT',
      'public.instances': 'INSERT,SELECT,UPDATE',
      // Runtime ownership: workers take, renew and release leases; api processes send commands, workers answer them.
      'public.instance_commands': 'DELETE,INSERT,SELECT,UPDATE',
      'public.instance_leases': 'DELETE,INSERT,SELECT,UPDATE',
      // The gateway's MPP challenges and the payments that consumed them (issue 10); expired unpaid challenges are purged hourly.
      'public.mpp_challenges': 'DELETE,INSERT,SELECT',
      'public.mpp_payments': 'INSERT,SELECT',
      // EIP-3009 payments (x402): claimed, recorded, settled, served (columns below); only an unsigned claim may be deleted (its release).
      'public.mpp_authorizations': 'DELETE,INSERT,SELECT',
      // One process sends from a settler at a time: its lease is taken, renewed by taking it again, and released.
      'public.mpp_settler_leases': 'DELETE,INSERT,SELECT,UPDATE',
      // One gateway call bought by a one-off checkout: marked paid by the webhook, given back by the gateway (columns below).
      'public.one_call_grants': 'SELECT',
      // OAuth sign-in: flows are created, spent (used_at only) and swept; identities linked, touched and unlinked by a reset.
      'public.oauth_flows': 'DELETE,INSERT,SELECT',
      'public.oauth_identities': 'DELETE,INSERT,SELECT',
      // Issue 12: the relay and the mail job read the outbox and record their work (columns below); pruning deletes.
      'public.outbox': 'DELETE,INSERT,SELECT',
      'public.password_resets': 'INSERT,SELECT,UPDATE',
      'public.payment_customers': 'INSERT,SELECT',
      'public.platform_ticks': 'DELETE,INSERT,SELECT',
      'public.processed_events': 'INSERT',
      'public.request_timings': 'DELETE,INSERT,SELECT,UPDATE',
      'public.sessions': 'DELETE,INSERT,SELECT,UPDATE',
      // Social sign-in (issue 11): the fid's account, and the refresh-token families (state columns only, below).
      'public.social_identities': 'INSERT,SELECT',
      'public.social_refresh_tokens': 'INSERT,SELECT',
      'public.social_session_families': 'INSERT,SELECT',
      'public.subscriptions': 'INSERT,SELECT,UPDATE',
      // Paid events that matched no user: kept by the webhook, attached at verification, listed for admins.
      'public.unmatched_payment_events': 'INSERT,SELECT,UPDATE',
      'public.usage_reservations': 'INSERT,SELECT',
      'public.users': 'INSERT,SELECT,UPDATE',
      // Wallet sign-in (issue 11): nonces issued, consumed and swept; wallets found, linked and touched (last_sign_in_at only, below).
      'public.wallet_identities': 'INSERT,SELECT',
      'public.wallet_nonces': 'DELETE,INSERT,SELECT,UPDATE',
      // Outbound event webhooks (issue 12): admin-managed endpoints and their delivery records, no user's rows.
      'public.webhook_deliveries': 'DELETE,INSERT,SELECT,UPDATE',
      'public.webhook_delivery_attempts': 'INSERT,SELECT',
      'public.webhook_endpoints': 'DELETE,INSERT,SELECT,UPDATE',
      ...Object.fromEntries(rows.filter((r) => r.t.startsWith('pgboss.j') && r.t !== 'pgboss.job').map((r) => [r.t, 'INSERT'])),
    });
    expect(colGrants.rows.map((r) => r.g)).toEqual([
      'agent_mailbox.attempts:UPDATE',
      // named claims (docs/decisions/0261): the claiming worker writes the claim's id and its own
      'agent_mailbox.claim_id:UPDATE',
      'agent_mailbox.claimed_by:UPDATE',
      'agent_mailbox.error:UPDATE',
      'agent_mailbox.error_code:UPDATE',
      'agent_mailbox.finished_at:UPDATE',
      'agent_mailbox.reply_message_id:UPDATE',
      'agent_mailbox.started_at:UPDATE',
      'agent_mailbox.status:UPDATE',
      'agents.status:UPDATE',
      'agents.updated_at:UPDATE',
      'api_key_usage.used_units:UPDATE',
      'api_keys.last_used_at:UPDATE',
      // a claim re-taken (a reverted settlement, a dead holder's claim) is rewritten whole: key and creation stay
      'mpp_authorizations.amount:UPDATE',
      'mpp_authorizations.attempts:UPDATE',
      'mpp_authorizations.body_digest:UPDATE',
      'mpp_authorizations.claim_token:UPDATE',
      'mpp_authorizations.claimed_at:UPDATE',
      'mpp_authorizations.failure:UPDATE',
      'mpp_authorizations.plugin:UPDATE',
      'mpp_authorizations.raw_tx:UPDATE',
      'mpp_authorizations.recipient:UPDATE',
      'mpp_authorizations.settler:UPDATE',
      'mpp_authorizations.settler_nonce:UPDATE',
      'mpp_authorizations.signature:UPDATE',
      'mpp_authorizations.status:UPDATE',
      'mpp_authorizations.tx_hash:UPDATE',
      'mpp_authorizations.updated_at:UPDATE',
      'mpp_authorizations.valid_after:UPDATE',
      'mpp_authorizations.valid_before:UPDATE',
      'mpp_authorizations.value:UPDATE',
      'mpp_challenges.consumed_at:UPDATE',
      'mpp_payments.attempts:UPDATE',
      'mpp_payments.failure:UPDATE',
      'mpp_payments.status:UPDATE',
      'mpp_payments.updated_at:UPDATE',
      'one_call_grants.consumed_at:UPDATE',
      'one_call_grants.paid_at:UPDATE',
      'one_call_grants.paid_event_id:UPDATE',
      'one_call_grants.status:UPDATE',
      'outbox.attempts:UPDATE',
      'outbox.delivered_at:UPDATE',
      'outbox.last_error:UPDATE',
      'social_refresh_tokens.used_at:UPDATE',
      'social_session_families.revoked_at:UPDATE',
      'social_session_families.session_id:UPDATE',
      'usage_reservations.closed_at:UPDATE',
      'usage_reservations.renewed_at:UPDATE',
      'usage_reservations.settled_units:UPDATE',
      'usage_reservations.status:UPDATE',
      'wallet_identities.last_sign_in_at:UPDATE',
    ]);
    await expect(pools.system.query('delete from users')).rejects.toThrow(/permission denied/);
    // the outbox is readable now (issue 12), but a row's content is never rewritten
    await expect(pools.system.query(`update outbox set payload = '{}'`)).rejects.toThrow(/permission denied/);
    await expect(pools.system.query('select * from byok_keys')).rejects.toThrow(/permission denied/);
    await expect(pools.system.query('select * from processed_events')).rejects.toThrow(/permission denied/);
    await expect(pools.system.query('delete from unmatched_payment_events')).rejects.toThrow(/permission denied/);
    await expect(pools.system.query('delete from usage_reservations')).rejects.toThrow(/permission denied/);
    await expect(pools.system.query('update usage_reservations set units = 1')).rejects.toThrow(/permission denied/);
    // payouts (docs/decisions/0220): the sweep reads which are unfinished and whose, never what or to whom
    await pools.system.query('select id, user_id, execution_id, position, status, created_at, updated_at from wallet_payouts');
    for (const column of ['amount', 'to_address', 'raw_transaction']) {
      await expect(pools.system.query(`select ${column} from wallet_payouts`)).rejects.toThrow(/permission denied/);
    }
    await expect(pools.system.query(`update wallet_payouts set status = 'failed'`)).rejects.toThrow(/permission denied/);
  });
});
