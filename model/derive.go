package model

// Derived is what cmd/mc-gen writes for a state type S: a deep copy, the
// canonical encoding, its inverse and the variables a trace prints, all
// derived from S's fields, so that a spec writes none of them by hand (a
// spec that wants a layout of its own still can).
type Derived[S any] interface {
	*S
	// CopyFrom makes the state a copy of src, reusing its storage.
	CopyFrom(src *S)
	// AppendTo appends the state's canonical encoding.
	AppendTo(buf []byte) []byte
	// DecodeFrom reads what AppendTo wrote. shape is a state whose slices
	// have the lengths every state of the system shares (one element per
	// process, one channel per link): the encoding leaves them out.
	DecodeFrom(d *Decoder, shape *S)
	// AppendVars appends the state's variables, each name after prefix.
	AppendVars(out []Var, prefix string) []Var
}

// Derive sets sys's Copy, Encode, Decode and Vars to S's derived methods.
// Decoding takes its shape from sys.Init[0], so Init must be set first.
func Derive[S any, PS Derived[S]](sys *System[S]) *System[S] {
	if len(sys.Init) == 0 {
		panic("model.Derive: the system has no initial state to take the shape from")
	}
	shape := &sys.Init[0]
	sys.Copy = func(dst, src *S) { PS(dst).CopyFrom(src) }
	sys.Encode = func(buf []byte, s *S) []byte { return PS(s).AppendTo(buf) }
	sys.Decode = func(data []byte, s *S) error {
		d := NewDecoder(data)
		PS(s).DecodeFrom(&d, shape)
		return d.Finish()
	}
	sys.Vars = func(s *S) []Var { return PS(s).AppendVars(nil, "") }
	return sys
}
