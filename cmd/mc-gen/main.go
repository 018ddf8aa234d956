// Command mc-gen derives a spec's state plumbing from its state type: the
// copy, canonical encoding, decoding and trace variables that
// model.System needs (model.Derived), written as plain methods into a
// file of the spec's package, so that the checker's hot path calls code
// as direct as a hand-written codec, with no reflection. A spec runs it
// with
//
//	//go:generate go run github.com/ringcheck/mc/cmd/mc-gen -type State
//
// and commits the file it writes (state_gen.go unless -o says otherwise);
// its test in this directory regenerates every such file of the module
// and fails on any difference, so the file cannot drift from the type.
//
// For every type named by -type (a struct; several, comma-separated) it
// writes CopyFrom, AppendTo, DecodeFrom and AppendVars. The fields, in
// order, may be:
//
//   - bools (one byte), 8-bit integers (one byte) and other integers (an
//     unsigned varint of the value), of any named type;
//   - arrays of those, element by element;
//   - structs whose pointer has the four methods (derived in the same run
//     or written by hand), encoded by their own AppendTo;
//   - ring.Chans, the messages in transit, encoded by their own AppendTo
//     and read with ring.ReadTagged for a ring.Tagged message, otherwise
//     with the package's one func(*model.Decoder) M;
//   - slices of any of the above but Chans: per-process variables, all of
//     one length, the number of processes.
//
// The encoding writes the slices first, interleaved process by process
// (process 0's variables, then process 1's, …), then the other fields in
// order; a slice's length is not written, since every state of a system
// has the same (DecodeFrom takes it from a shape state, the system's
// initial one). A trace names process i's element of slice Decided
// "p<i>.decided" and the channels into it as ring.Chans.Vars does
// ("p<i>.in"); a per-process struct's variables are named after the
// process directly ("p<i>.status"); another field is named by its own
// name ("sent", "ghost.sent" within Ghost). A name is the field's with its
// first letter in lower case, unless a tag `mc:"name"` gives one. A value
// is rendered by its String method, by the package function the tag names
// after show= (`mc:"lgmax,show=lgmax"`), or by fmt.Sprint.
//
// For a type named by -type that is an integer type with constants (an
// enumeration, a message kind) it writes String instead: each constant's
// name with its first letter in lower case.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	types := flag.String("type", "", "the state types to derive plumbing for, comma-separated")
	out := flag.String("o", "state_gen.go", "the file to write, in the package's directory")
	dir := flag.String("dir", ".", "the package's directory")
	flag.Parse()
	if *types == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: mc-gen -type T[,U…] [-o file] [-dir dir]")
		os.Exit(2)
	}
	src, err := generate(*dir, *out, strings.Split(*types, ","))
	if err != nil {
		fmt.Fprintln(os.Stderr, "mc-gen:", err)
		os.Exit(2)
	}
	if err := writeFile(*dir, *out, src); err != nil {
		fmt.Fprintln(os.Stderr, "mc-gen:", err)
		os.Exit(1)
	}
}
