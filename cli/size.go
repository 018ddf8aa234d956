package cli

import (
	"fmt"
	"math/big"
	"regexp"
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

// decimal is a size's number: digits, with an optional fraction.
var decimal = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

// parseSize reads a memory size: a number of bytes, possibly with a
// fraction, and an optional unit: "512MiB", "1.5GiB", "2G", "1500MB",
// "1048576" (the units GOMEMLIMIT takes, plus decimal ones and the
// one-letter binary shorthands). A fraction of a byte is dropped.
func parseSize(s string) (int64, error) {
	num, scale := strings.TrimSpace(s), int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(num, u.suffix) {
			num, scale = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.scale
			break
		}
	}
	x, ok := new(big.Rat).SetString(num)
	if !decimal.MatchString(num) || !ok {
		return 0, fmt.Errorf("want a positive size such as 512MiB or 1.5GiB, got %q", s)
	}
	bytes := new(big.Int).Mul(x.Num(), big.NewInt(scale))
	bytes.Quo(bytes, x.Denom())
	switch {
	case bytes.Sign() <= 0:
		return 0, fmt.Errorf("want a positive size such as 512MiB or 1.5GiB, got %q", s)
	case !bytes.IsInt64():
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return bytes.Int64(), nil
}
