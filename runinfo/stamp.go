package runinfo

// Schema is the version of the JSON mc prints (mc check --json, mc list
// --json, mc sweep --json, mc version --json, and mc-beam's), which
// docs/json.md describes. It changes when a field is removed or changes
// meaning, so that a program reading the output can refuse a schema it
// does not know; a new field does not change it.
const Schema = 1

// Stamp opens every JSON object mc prints: the mc that wrote it and the
// schema it follows.
type Stamp struct {
	MCVersion string `json:"mc_version"`
	Schema    int    `json:"schema"`
}

// ThisStamp is the stamp of this build's output.
func ThisStamp() Stamp { return Stamp{MCVersion: ThisBuild().Version, Schema: Schema} }
