package cli

import "github.com/ringcheck/mc/internal/memlimit"

// memoryFloor is the smallest --max-memory mc accepts (memlimit.Floor).
// The package's tests, whose process holds far more than mc does when it
// starts, take any limit, to stop runs with tiny ones; their children, mc
// itself, keep the floor.
var memoryFloor = memlimit.Floor
