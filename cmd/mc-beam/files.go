package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// workDir is the directory the pipelines' workers and the driver share:
// dir, on any filesystem Beam has (a local path; gs:// on Dataflow), or,
// when dir is "", a new temporary local directory that done removes.
func workDir(ctx context.Context, dir string) (work string, done func(), err error) {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "mc-beam-")
		if err != nil {
			return "", nil, err
		}
		return tmp, func() { os.RemoveAll(tmp) }, nil
	}
	if !strings.Contains(dir, "://") {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", nil, err
		}
	}
	return strings.TrimSuffix(dir, "/"), func() {}, nil
}

// create opens path for writing on its filesystem, making a local
// path's directory first.
func create(ctx context.Context, path string) (io.WriteCloser, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	if !strings.Contains(path, "://") {
		if i := strings.LastIndexByte(path, '/'); i > 0 {
			if err := os.MkdirAll(path[:i], 0o755); err != nil {
				return nil, err
			}
		}
	}
	return fs.OpenWrite(ctx, path)
}

// open opens path for reading; ok is false when it does not exist.
func open(ctx context.Context, path string) (r io.ReadCloser, ok bool, err error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, false, err
	}
	found, err := fs.List(ctx, path)
	if err != nil || len(found) == 0 {
		return nil, false, err
	}
	r, err = fs.OpenRead(ctx, path)
	return r, err == nil, err
}

// writeFile writes what fill writes to path.
func writeFile(ctx context.Context, path string, fill func(w *bufio.Writer) error) error {
	out, err := create(ctx, path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(out, 1<<16)
	err = fill(w)
	if err == nil {
		err = w.Flush()
	}
	return errors.Join(err, out.Close())
}

func writeJSON(ctx context.Context, path string, v any) error {
	return writeFile(ctx, path, func(w *bufio.Writer) error { return json.NewEncoder(w).Encode(v) })
}

func readJSON(ctx context.Context, path string, v any) error {
	r, ok, err := open(ctx, path)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New(path + ": not written by the pipeline")
	}
	defer r.Close()
	return json.NewDecoder(r).Decode(v)
}

// removeLevel removes level's visited files, which the next level's
// supersede; the states files stay, as the parent links of a trace.
func removeLevel(ctx context.Context, work string, level, shards int) error {
	for sh := 0; sh < shards; sh++ {
		path := visitedPath(work, level, sh)
		fs, err := filesystem.New(ctx, path)
		if err != nil {
			return err
		}
		if rm, ok := fs.(filesystem.Remover); ok {
			if err := rm.Remove(ctx, path); err != nil {
				return err
			}
		}
	}
	return nil
}
