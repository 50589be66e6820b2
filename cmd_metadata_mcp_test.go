package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"talk2tables/internal/testfixture"
)

func TestMetadataMCPCommandFlags(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"product_aliases": {}, "column_mappings": {}}`), 0o644)
	tests := []struct {
		name       string
		args       []string
		wantErr    error
		wantErrMsg string
		wantStderr string
	}{
		{name: "help", args: []string{"--help"}, wantErr: errHelp, wantStderr: "-transport string"},
		{name: "unknown flag", args: []string{"--port", "1"}, wantErr: errUsage, wantStderr: "flag provided but not defined: -port"},
		{name: "bad transport", args: []string{"--transport", "websocket"}, wantErr: errUsage, wantStderr: `--transport "websocket" is not one of stdio, sse, http`},
		{name: "bad log level", args: []string{"--log-level", "loud"}, wantErrMsg: `log level "loud"`},
		{name: "bad catalog", args: []string{"--catalog", bad}, wantErrMsg: bad + ": $: names no table"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run(context.Background(), append([]string{"metadata-mcp"}, tt.args...), stdio{strings.NewReader(""), &out, &errOut})
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if tt.wantErrMsg != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErrMsg)) {
				t.Errorf("err = %v, want it to contain %q", err, tt.wantErrMsg)
			}
			if !strings.Contains(errOut.String(), tt.wantStderr) {
				t.Errorf("stderr = %q, want it to contain %q", errOut.String(), tt.wantStderr)
			}
		})
	}
}

// TestMetadataMCPCommandStdio speaks raw JSON-RPC to the command over stdio:
// the protocol owns stdout, logs go to stderr.
func TestMetadataMCPCommandStdio(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errOut testfixture.LogBuffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"metadata-mcp", "--catalog", filepath.Join("testdata", "sales_catalog.json")}, stdio{inR, outW, &errOut})
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	lines.Buffer(make([]byte, 1<<20), 1<<22)
	send := func(msg string) {
		t.Helper()
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			t.Fatalf("write request: %v", err)
		}
	}
	next := func() string {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("no response on stdout (err %v); stderr: %s", lines.Err(), errOut.String())
		}
		return lines.Text()
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	if got := next(); !strings.Contains(got, `"talk2tables-metadata"`) {
		t.Errorf("initialize response = %s, want the server name", got)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"metadata://metadata_summary"}}`)
	if got := next(); !strings.Contains(got, `\"version\":2,\"tables\":4,`) {
		t.Errorf("read summary response = %s, want version 2 with 4 tables", got)
	}
	inW.Close() // EOF ends the stdio server cleanly
	go io.Copy(io.Discard, outR)
	if err := <-done; err != nil {
		t.Errorf("metadata-mcp exited with %v; stderr: %s", err, errOut.String())
	}
	if !errOut.Contains(`"event":"catalog_watch_started"`) {
		t.Errorf("stderr lacks the JSON watch log line: %s", errOut.String())
	}
}
