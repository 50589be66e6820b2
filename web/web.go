// Package web holds talk2tables' browser UI: plain HTML, CSS and JavaScript
// modules with no build step, embedded into the binary.
//
// Package server serves Files at "/". The page talks only to the same origin:
// POST /api/query (streamed as server-sent events), POST /api/sql,
// GET /api/servers, GET /health and /api/verified (save an answer's SQL as
// verified; verified.html lists, searches and deletes the entries).
package web

import (
	"embed"
	"io/fs"
)

//go:embed static
var static embed.FS

// Files is the UI's file tree; its root holds index.html and the assets it
// references (app.js, style.css and the other modules).
var Files fs.FS = mustSub(static, "static")

// mustSub returns the subtree dir of fsys. It panics only if the embedded
// tree is malformed, which the build itself rules out.
func mustSub(fsys fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		panic("web: embedded static tree: " + err.Error())
	}
	return sub
}
