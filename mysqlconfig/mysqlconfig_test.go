package mysqlconfig

import (
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
)

func TestParse(t *testing.T) {
	t.Setenv("MYSQL_PWD", "from-mysql-pwd")
	t.Setenv("T2T_PW", "from-env")
	tests := []struct {
		name, dsn, env string
		want           Target
		password       string
		wantErr        string
	}{
		{name: "url", dsn: "mysql://ann:secret@db.example:3307/sales?tls=skip-verify", want: Target{Host: "db.example", Port: 3307, Database: "sales", User: "ann"}, password: "secret"},
		{name: "mariadb url, default port", dsn: "mariadb://ann@db.example/sales", want: Target{Host: "db.example", Port: 3306, Database: "sales", User: "ann"}, password: "from-mysql-pwd"},
		{name: "driver form", dsn: "bob@tcp(10.0.0.5:3308)/shop", want: Target{Host: "10.0.0.5", Port: 3308, Database: "shop", User: "bob"}, password: "from-mysql-pwd"},
		{name: "socket", dsn: "bob@unix(/run/mysqld/mysqld.sock)/shop", want: Target{Socket: "/run/mysqld/mysqld.sock", Database: "shop", User: "bob"}, password: "from-mysql-pwd"},
		{name: "password env wins", dsn: "mysql://ann:inline@h/db", env: "T2T_PW", want: Target{Host: "h", Port: 3306, Database: "db", User: "ann"}, password: "from-env"},
		{name: "empty", dsn: " ", wantErr: "empty DSN"},
		{name: "no database", dsn: "mysql://ann:secret@h:3306/", wantErr: "names no database"},
		{name: "multi statements", dsn: "mysql://ann:secret@h/db?multiStatements=true", wantErr: "several statements per query"},
		{name: "local infile", dsn: "ann:secret@tcp(h)/db?allowAllFiles=true", wantErr: "LOAD DATA LOCAL"},
		{name: "bad param", dsn: "ann:secret@tcp(h)/db?timeout=soon", wantErr: "not a valid MySQL connection string"},
		{name: "missing env", dsn: "mysql://h/db", env: "T2T_NOT_SET_ANYWHERE", wantErr: "T2T_NOT_SET_ANYWHERE is not set or empty"},
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
			if got := TargetOf(cfg); got != tt.want || cfg.Passwd != tt.password || cfg.MultiStatements || cfg.Timeout == 0 {
				t.Errorf("Parse = %+v password %q, want %+v %q", got, cfg.Passwd, tt.want, tt.password)
			}
			if !Is(tt.dsn) {
				t.Errorf("Is(%q) = false", tt.dsn)
			}
		})
	}
	for _, dsn := range []string{"postgres://u@h/db", "host=h dbname=db", "testdata/sales.db"} {
		if Is(dsn) {
			t.Errorf("Is(%q) = true", dsn)
		}
	}
	if !HasInlinePassword("mysql://a:b@h/db") || !HasInlinePassword("a:b@tcp(h)/db") || HasInlinePassword("a@tcp(h)/db") {
		t.Error("HasInlinePassword misreads a DSN")
	}
	tg := Target{Host: "h", Port: 3306, Database: "db", User: "u"}
	if tg.URL() != "mysql://u@h:3306/db" || tg.String() != `mysql h:3306 database "db" user "u"` {
		t.Errorf("URL %q, String %q", tg.URL(), tg.String())
	}
}

func TestConnectError(t *testing.T) {
	tg := Target{Host: "127.0.0.1", Port: 1, Database: "sales", User: "u"}
	tests := []struct {
		err  error
		want string
	}{
		{&mysql.MySQLError{Number: 1045, Message: "Access denied"}, "access denied: check the user and password"},
		{&mysql.MySQLError{Number: 1049, Message: "Unknown database"}, `database "sales" does not exist`},
		{&net.OpError{Op: "dial", Err: errors.New("connection refused")}, "cannot reach the server (connection refused)"},
	}
	for _, tt := range tests {
		if got := ConnectError(tg, tt.err).Error(); !strings.HasPrefix(got, tg.String()) || !strings.Contains(got, tt.want) {
			t.Errorf("ConnectError(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}
