package memlimit

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"
)

// sizeUnits are the suffixes Parse accepts, longest first so that "MiB" is
// not read as "B".
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

// Parse reads a memory size: a number of bytes, possibly with a fraction,
// and an optional unit: "512MiB", "1.5GiB", "2G", "1500MB", "1048576" (the
// units GOMEMLIMIT takes, plus decimal ones and the one-letter binary
// shorthands). A fraction of a byte is dropped.
func Parse(s string) (int64, error) {
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

// Flag reads --max-memory's value: a size Parse takes, and no less than
// floor, the smallest limit the process can keep to (Floor; 0 takes any).
// Its error is the line a command prints after its name.
func Flag(s string, floor int64) (int64, error) {
	limit, err := Parse(s)
	if err != nil {
		return 0, fmt.Errorf("--max-memory: %v", err)
	}
	if limit < floor {
		return 0, fmt.Errorf("--max-memory %s is less than the memory this program needs to start; the smallest usable limit is %dMiB",
			strings.TrimSpace(s), floor>>20)
	}
	return limit, nil
}

// Format renders a byte count for a person: "512 KiB", "64.0 MiB",
// "1.50 GiB".
func Format(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", (b+1023)/1024)
}
