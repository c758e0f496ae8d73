import type { Kysely } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';

/**
 * Migrations are code, kept in order here, and written with Kysely's schema builder so the same
 * steps run on SQLite and Postgres. Append new steps; never edit one that has shipped.
 */
const migrations: Record<string, Migration> = {
  '0001_keys_and_ledger': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema
        .createTable('usage_ledger')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('units', 'integer', (c) => c.notNull())
        .addColumn('cost_micros', 'bigint', (c) => c.notNull())
        .addColumn('ref', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('usage_ledger_user')
        .on('usage_ledger')
        .columns(['user_id', 'created_at'])
        .execute();
    },
  },
  '0002_browser_sessions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('browser_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('browser', 'text', (c) => c.notNull())
        .addColumn('headless', 'integer', (c) => c.notNull())
        .addColumn('proxy', 'integer', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('token_hash', 'text')
        .addColumn('instance_url', 'text', (c) => c.notNull())
        .addColumn('storage_state', 'text')
        .addColumn('last_url', 'text')
        .addColumn('close_reason', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('closed_at', 'bigint')
        .addColumn('last_activity_at', 'bigint', (c) => c.notNull())
        .addColumn('billed_micros', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('browser_sessions_instance')
        .on('browser_sessions')
        .columns(['instance_url', 'status'])
        .execute();
      await db.schema
        .createIndex('browser_sessions_user')
        .on('browser_sessions')
        .columns(['user_id', 'created_at'])
        .execute();
    },
  },
  '0003_jobs': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('completed', 'integer', (c) => c.notNull())
        .addColumn('cost_micros', 'bigint', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('jobs_user_created')
        .on('jobs')
        .columns(['user_id', 'created_at'])
        .execute();
      await db.schema.createIndex('jobs_expires').on('jobs').column('expires_at').execute();
      await db.schema
        .createTable('job_items')
        .addColumn('job_id', 'text', (c) => c.notNull())
        .addColumn('idx', 'integer', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('input', 'text', (c) => c.notNull())
        .addColumn('result', 'text')
        .addColumn('cost_micros', 'bigint', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('started_at', 'bigint')
        .addColumn('finished_at', 'bigint')
        .addPrimaryKeyConstraint('job_items_pk', ['job_id', 'idx'])
        .execute();
      await db.schema
        .createIndex('job_items_state')
        .on('job_items')
        .columns(['state', 'job_id', 'idx'])
        .execute();
    },
  },
  '0004_crawl_and_webhooks': {
    async up(db: Kysely<unknown>) {
      // Items a job discovers while it runs (a crawl's pages) carry the key they are deduplicated by.
      await db.schema.alterTable('job_items').addColumn('item_key', 'text').execute();
      await db.schema
        .createIndex('job_items_key')
        .on('job_items')
        .columns(['job_id', 'item_key'])
        .unique()
        .execute();
      await db.schema.alterTable('jobs').addColumn('max_items', 'integer').execute();
      await db.schema.alterTable('jobs').addColumn('webhook', 'text').execute();
      await db.schema
        .createTable('webhook_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('job_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('headers', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('delivered_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('webhook_events_due')
        .on('webhook_events')
        .columns(['state', 'next_at'])
        .execute();
      await db.schema
        .createIndex('webhook_events_job')
        .on('webhook_events')
        .columns(['job_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('webhook_attempts')
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('job_id', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('error', 'text')
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_attempts_pk', ['event_id', 'attempt'])
        .execute();
      await db.schema
        .createIndex('webhook_attempts_job')
        .on('webhook_attempts')
        .columns(['job_id', 'at'])
        .execute();
      await db.schema
        .createTable('webhook_secrets')
        .addColumn('user_id', 'text', (c) => c.primaryKey())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0005_active_jobs': {
    async up(db: Kysely<unknown>) {
      // The runner looks for the oldest active job on every claim: without this it read every job
      // kept until expiry (finished ones too), so a claim grew slower with each job stored.
      await db.schema
        .createIndex('jobs_status_created')
        .on('jobs')
        .columns(['status', 'created_at'])
        .execute();
    },
  },
  '0006_browser_profiles': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('browser_profiles')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('saved_at', 'bigint')
        .addColumn('in_use_by', 'text')
        .addPrimaryKeyConstraint('browser_profiles_pk', ['user_id', 'name'])
        .execute();
    },
  },
  '0007_page_cache': {
    async up(db: Kysely<unknown>) {
      // The index of cached scrape results; their bodies are compressed files named by `id`.
      await db.schema
        .createTable('page_cache')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('bytes', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('page_cache_scope_url')
        .on('page_cache')
        .columns(['scope', 'url'])
        .execute();
      await db.schema.createIndex('page_cache_key').on('page_cache').column('key').execute();
      await db.schema.createIndex('page_cache_used').on('page_cache').column('used_at').execute();
      await db.schema
        .createIndex('page_cache_created')
        .on('page_cache')
        .column('created_at')
        .execute();
    },
  },
  '0008_page_snapshots': {
    async up(db: Kysely<unknown>) {
      // The last main-content markdown seen per user, URL and change-tracking tag.
      await db.schema
        .createTable('page_snapshots')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('tag', 'text', (c) => c.notNull())
        .addColumn('markdown', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('page_snapshots_created')
        .on('page_snapshots')
        .column('created_at')
        .execute();
    },
  },
  '0009_monitors': {
    async up(db: Kysely<unknown>) {
      // A monitor's next tick is a column claimed by a conditional update, not a pg-boss schedule:
      // see monitors/scheduler.ts.
      await db.schema
        .createTable('monitors')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('request', 'text', (c) => c.notNull())
        .addColumn('job_type', 'text', (c) => c.notNull())
        .addColumn('job', 'text', (c) => c.notNull())
        .addColumn('schedule', 'text', (c) => c.notNull())
        .addColumn('notify', 'text', (c) => c.notNull())
        .addColumn('webhook', 'text')
        .addColumn('paused', 'integer', (c) => c.notNull())
        .addColumn('next_run_at', 'bigint', (c) => c.notNull())
        .addColumn('running_check', 'text')
        .addColumn('checks', 'integer', (c) => c.notNull())
        .addColumn('last_check_at', 'bigint')
        .addColumn('last_status', 'text')
        .addColumn('last_error', 'text')
        .addColumn('consecutive_failures', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('monitors_due')
        .on('monitors')
        .columns(['paused', 'next_run_at'])
        .execute();
      await db.schema
        .createIndex('monitors_running')
        .on('monitors')
        .column('running_check')
        .execute();
      await db.schema
        .createIndex('monitors_user')
        .on('monitors')
        .columns(['user_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('monitor_checks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('monitor_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('scheduled_at', 'bigint', (c) => c.notNull())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('pages', 'text')
        .addColumn('changed', 'integer', (c) => c.notNull())
        .addColumn('cost_micros', 'bigint', (c) => c.notNull())
        .addColumn('error', 'text')
        .execute();
      await db.schema
        .createIndex('monitor_checks_monitor')
        .on('monitor_checks')
        .columns(['monitor_id', 'scheduled_at'])
        .execute();
    },
  },
  '0010_snapshot_json': {
    async up(db: Kysely<unknown>) {
      // Change tracking's json mode compares an extraction with the one kept beside the markdown.
      await db.schema.alterTable('page_snapshots').addColumn('json', 'text').execute();
    },
  },
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
