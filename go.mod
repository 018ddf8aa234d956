module mc

go 1.26.8

require (
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/spf13/pflag v1.0.10
)
