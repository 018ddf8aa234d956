package main

import "runtime/debug"

// release is mc's version; trace files record it.
const release = "0.1.0-dev"

// version is release, followed by the VCS revision the binary was built
// from when Go recorded one ("0.1.0-dev+1a2b3c4d5e6f", "+dirty" when the
// tree had changes).
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return release
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return release
	}
	v := release + "+" + rev[:min(12, len(rev))]
	if dirty {
		v += ".dirty"
	}
	return v
}
