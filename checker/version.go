package checker

// FingerprintFunc names the fingerprint function; a checkpoint made with
// another one cannot be resumed.
const FingerprintFunc = "xxh3-64"
