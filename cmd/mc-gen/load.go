package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// listed is what go list says of a package.
type listed struct {
	ImportPath string
	Name       string
	Dir        string
	GoFiles    []string
	Export     string
}

// load type-checks the package in dir, without the file out (which it is
// about to rewrite, and which may be stale or missing). The imports are
// read from the export data that go list -export leaves in the build
// cache, which keeps mc free of golang.org/x/tools. Type errors are
// ignored: the rest of the package may use the methods not yet written.
func load(dir, out string) (*types.Package, error) {
	pkgs, err := goList(dir)
	if err != nil {
		return nil, err
	}
	self := pkgs[len(pkgs)-1] // go list -deps lists the package last
	exports := map[string]string{}
	for _, p := range pkgs {
		if p.Export != "" {
			exports[p.ImportPath] = p.Export
		}
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range self.GoFiles {
		if name == out {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(self.Dir, name), nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	lookup := func(path string) (io.ReadCloser, error) {
		if e, ok := exports[path]; ok {
			return os.Open(e)
		}
		return nil, fmt.Errorf("no export data for %s", path)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", lookup), Error: func(error) {}}
	pkg, _ := conf.Check(self.ImportPath, fset, files, nil)
	return pkg, nil
}

// goList lists the package in dir and its dependencies, with their export
// data (-e: the package itself may not compile without the file out).
func goList(dir string) ([]listed, error) {
	cmd := exec.Command("go", "list", "-e", "-deps", "-export", "-json=ImportPath,Name,Dir,GoFiles,Export", ".")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	data, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("go list found no package in %s", dir)
	}
	return pkgs, nil
}

// writeFile writes src to dir/name through a fresh temporary file, synced
// and then renamed, so that a failed run leaves the old file whole.
func writeFile(dir, name string, src []byte) error {
	tmp, err := os.CreateTemp(dir, ".mc-gen-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(src)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
