package checker

// Version is mc's version, recorded in checkpoints (and trace files) so that
// a file written by another version is refused rather than misread.
const Version = "0.1.0"

// FingerprintFunc names the fingerprint function; a checkpoint made with
// another one cannot be resumed.
const FingerprintFunc = "xxhash64"

// CheckpointFormat is the format number of the checkpoints this mc writes
// and reads (checkpoint.go); mc version prints it.
const CheckpointFormat = checkpointFormat
