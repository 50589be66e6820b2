package databasemcp

import (
	"context"
	"time"
)

// PostgresWatchInterval is how often NotifyDataChanges reads a PostgreSQL
// data version.
const PostgresWatchInterval = time.Second

// pgVersionQuery reads what a PostgreSQL database's content is known by
// without reading the data. On a primary: the cluster's transaction
// snapshot (txid_current_snapshot: the next transaction id and those in
// progress), which changes as soon as a transaction that writes (any
// INSERT, UPDATE, DELETE, TRUNCATE, DDL, in any database of the cluster)
// starts or ends; reads never change it. On a hot standby: the position of
// the last replayed WAL record. The statistics views'
// write counters (pg_stat_user_tables) were the first choice and were
// dropped: a session reports its writes to them when it goes idle, up to
// 10 s after its commit (PGSTAT_IDLE_INTERVAL), and a replica would serve
// the old result that long.
const pgVersionQuery = `SELECT pg_catalog.pg_is_in_recovery(),
  COALESCE(pg_catalog.pg_last_wal_replay_lsn()::text, ''),
  pg_catalog.md5(pg_catalog.txid_current_snapshot()::text)`

// DataVersion names the database's content as far as the server tells it
// (pgVersionQuery): "x:" and a digest of the transaction snapshot on a
// primary, "r:" and the replay position on a standby. It changes whenever
// a table may have been written, created, dropped or replaced, and more
// often than needed: for a write to any database of the cluster, and on a
// standby for any WAL replayed (never less often). Its limits: writes by
// other means than SQL on the table (a foreign table's server, a file
// behind file_fdw) and non-transactional changes (a sequence's nextval) do
// not show. "" when it cannot be read: results are then cached by TTL
// only. It is read at most once per dataVersionTTL, so a result may be
// cached under a version read up to that long before its statement ran.
func (p *Postgres) DataVersion(ctx context.Context) string {
	p.verMu.Lock()
	defer p.verMu.Unlock()
	if p.ver != "" && time.Since(p.verAt) < dataVersionTTL {
		return p.ver
	}
	ctx, cancel := context.WithTimeout(ctx, dataVersionTimeout)
	defer cancel()
	var standby bool
	var replay, snapshot string
	if err := p.pool.QueryRow(ctx, pgVersionQuery).Scan(&standby, &replay, &snapshot); err != nil {
		return ""
	}
	if standby {
		p.ver = "r:" + replay
	} else {
		p.ver = "x:" + snapshot
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
