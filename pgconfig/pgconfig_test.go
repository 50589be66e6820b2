package pgconfig

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

func TestParse(t *testing.T) {
	t.Setenv("PGPASSWORD", "")
	t.Setenv("T2T_PW", "from-env")
	tests := []struct {
		name, dsn, env string
		want           Target
		password       string
		wantErr        string
	}{
		{name: "url", dsn: "postgres://ann@db.example:6543/sales?sslmode=disable", want: Target{"db.example", 6543, "sales", "ann"}},
		{name: "key value", dsn: "host=10.0.0.5 port=5433 dbname=shop user=bob sslmode=disable", want: Target{"10.0.0.5", 5433, "shop", "bob"}},
		{name: "password env wins", dsn: "postgres://ann:inline@h/db?sslmode=disable", env: "T2T_PW", want: Target{"h", 5432, "db", "ann"}, password: "from-env"},
		{name: "empty", dsn: " ", wantErr: "empty DSN"},
		{name: "bad port", dsn: "postgres://ann:secret@h:x/db", wantErr: "not a valid PostgreSQL connection string"},
		{name: "missing env", dsn: "postgres://h/db", env: "T2T_NOT_SET_ANYWHERE", wantErr: "T2T_NOT_SET_ANYWHERE is not set or empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse(tt.dsn, tt.env)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), "secret") {
					t.Fatalf("Parse error = %v, want %q without the password", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := TargetOf(cfg); got != tt.want {
				t.Errorf("target = %+v, want %+v", got, tt.want)
			}
			if tt.password != "" && cfg.Password != tt.password {
				t.Errorf("password = %q, want %q", cfg.Password, tt.password)
			}
			if cfg.ConnectTimeout != DefaultConnectTimeout {
				t.Errorf("connect timeout = %s", cfg.ConnectTimeout)
			}
		})
	}
}

func TestHasInlinePassword(t *testing.T) {
	for dsn, want := range map[string]bool{
		"postgres://ann:pw@h/db":             true,
		"postgres://ann@h/db?password=pw":    true,
		"postgresql://ann@h/db":              false,
		"host=h user=ann password=pw":        true,
		"host=h user=ann":                    false,
		"host=h user=password_reader dbname": false,
	} {
		if got := HasInlinePassword(dsn); got != want {
			t.Errorf("HasInlinePassword(%q) = %v, want %v", dsn, got, want)
		}
	}
}

func TestConnectError(t *testing.T) {
	tg := Target{Host: "127.0.0.1", Port: 1, Database: "db", User: "ann"}
	if s := tg.String(); s != `postgres 127.0.0.1:1 database "db" user "ann"` {
		t.Errorf("String = %q", s)
	}
	cfg, err := Parse("postgres://ann:secret@127.0.0.1:1/db?sslmode=disable&connect_timeout=5", "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = pgx.ConnectConfig(context.Background(), cfg)
	got := ConnectError(TargetOf(cfg), err).Error()
	if !strings.Contains(got, "cannot reach the server (connection refused)") || strings.Contains(got, "secret") {
		t.Errorf("refused = %q", got)
	}
	for code, want := range map[string]string{
		"28P01": "password authentication failed",
		"3D000": `database "db" does not exist`,
		"28000": "pg_hba.conf",
		"53300": "no free connection slots",
	} {
		got := ConnectError(tg, wrapPg(code)).Error()
		if !strings.Contains(got, want) || strings.Contains(got, "\n") {
			t.Errorf("ConnectError(%s) = %q, want %q", code, got, want)
		}
	}
	if got := ConnectError(tg, context.DeadlineExceeded).Error(); !strings.Contains(got, "no answer within the connect timeout") {
		t.Errorf("timeout = %q", got)
	}
}

func wrapPg(code string) error {
	return errors.Join(errors.New("failed to connect"), &pgconn.PgError{Code: code, Message: "server says no"})
}
