package databasemcp

import (
	"context"
	"time"
)

// PostgresWatchInterval is how often NotifyDataChanges reads a PostgreSQL
// data version.
const PostgresWatchInterval = 2 * time.Second

// pgVersionQuery reads what a PostgreSQL database's content is known by
// without reading the data. On a primary: the number of user tables and
// the sums of their ids, their files (pg_relation_filenode: TRUNCATE,
// VACUUM FULL, CLUSTER and a non-concurrent REFRESH give a table a new
// file) and their cumulative row writes (pg_stat_user_tables: n_tup_ins +
// n_tup_upd + n_tup_del). On a hot standby, whose statistics are its own
// (its readers', never its primary's writes), the position of the last
// replayed WAL record. With track_counts off the counters stay still, and
// no version is given.
const pgVersionQuery = `SELECT pg_catalog.pg_is_in_recovery(),
  COALESCE(pg_catalog.pg_last_wal_replay_lsn()::text, ''),
  pg_catalog.current_setting('track_counts') = 'on',
  (SELECT count(*) || '.' || COALESCE(sum(relid::bigint), 0) || '.' ||
          COALESCE(sum(pg_catalog.pg_relation_filenode(relid)::bigint), 0) || '.' ||
          COALESCE(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)
     FROM pg_catalog.pg_stat_user_tables)`

// DataVersion names the database's content as far as the server tells it
// (pgVersionQuery): "t:" and the tables' counters on a primary, "r:" and
// the replay position on a standby. It changes when a table is written
// (inserted, updated, deleted, truncated), created, dropped or replaced;
// on a standby whenever WAL is replayed, for any database of the cluster
// (changes more often than needed, never less). Its limits: a backend
// reports its writes to the statistics when its transaction ends, at most
// once a second (PGSTAT_MIN_INTERVAL), and by 10 s when its first attempt
// finds the statistics busy, so a write shows in the version about a second
// after its commit; writes by other means than SQL on the table (a foreign
// table's server, a file behind file_fdw) do not show. "" when it cannot
// be read: results are then cached by TTL only. It is read at most once per
// second.
func (p *Postgres) DataVersion(ctx context.Context) string {
	p.verMu.Lock()
	defer p.verMu.Unlock()
	if p.ver != "" && time.Since(p.verAt) < dataVersionTTL {
		return p.ver
	}
	ctx, cancel := context.WithTimeout(ctx, dataVersionTimeout)
	defer cancel()
	var standby, counted bool
	var replay, tables string
	if err := p.pool.QueryRow(ctx, pgVersionQuery).Scan(&standby, &replay, &counted, &tables); err != nil {
		return ""
	}
	switch {
	case standby:
		p.ver = "r:" + replay
	case counted:
		p.ver = "t:" + tables
	default:
		return ""
	}
	p.verAt = time.Now()
	return p.ver
}

// Watch reads the data version every interval until ctx is done and calls
// changed with it whenever it differs from the last one read; the cached
// schema (row counts, values) is dropped then.
func (p *Postgres) Watch(ctx context.Context, interval time.Duration, changed func(version string)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	last := p.DataVersion(ctx)
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		v := p.DataVersion(ctx)
		if v == "" || v == last {
			continue
		}
		last = v
		p.schemaMu.Lock()
		p.schema = nil
		p.schemaMu.Unlock()
		changed(v)
	}
}

func (p *Postgres) watchInterval() time.Duration { return PostgresWatchInterval }

var _ Watcher = (*Postgres)(nil)
