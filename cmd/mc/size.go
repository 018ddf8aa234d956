package main

import (
	"fmt"
	"strconv"
	"strings"
)

// sizeUnits are the suffixes parseSize accepts, longest first so that
// "MiB" is not read as "B".
var sizeUnits = []struct {
	suffix string
	scale  int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40},
	{"B", 1},
}

// parseSize reads a memory size: a whole number of bytes with an optional
// unit, "512MiB", "2G", "1500MB", "1048576" (the units GOMEMLIMIT takes,
// plus decimal ones and the one-letter binary shorthands).
func parseSize(s string) (int64, error) {
	num, scale := strings.TrimSpace(s), int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(num, u.suffix) {
			num, scale = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.scale
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("want a positive size such as 512MiB or 2GiB, got %q", s)
	}
	if n > (1<<63-1)/scale {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return n * scale, nil
}
