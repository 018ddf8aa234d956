package main

import "mc/runinfo"

// version is mc's version as trace files and checkpoints record it:
// runinfo.Release, followed by the VCS revision the binary was built from
// when Go recorded one ("0.1.0-dev+1a2b3c4d5e6f", ".dirty" when the tree
// had changes).
func version() string { return runinfo.ThisBuild().Version }
